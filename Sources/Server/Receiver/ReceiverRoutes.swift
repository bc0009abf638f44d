import ContactCenter
import Foundation
import Hummingbird
import Logging
import Primitives

/// The receiver: where Amazon Connect's streams arrive.
///
/// - `POST /v1/firehose/{stream}` (`contact-records`, `agent-events`, `contact-events`): Amazon
///   Data Firehose's HTTP endpoint delivery contract (Firehose developer guide, "Understand HTTP
///   endpoint delivery request and response specifications"). Every JSON object of every record
///   is produced to the stream's topic under the key the ingest uses; the answer is 200 only
///   once Kafka acknowledged all of them, else an error Firehose retries with the same request
///   id (the ingest's version guard and event-id dedup make the repeat harmless). A record that
///   can never be ingested is produced marked with its reason, and the ingest dead-letters it.
/// - `POST /v1/eventbridge/contact-events`: one EventBridge event per request (an API
///   destination), 200 after Kafka's acknowledgement.
///
/// The body is read as a stream: see ``ReceiverConfiguration`` for the memory bound.
public struct ReceiverRoutes: RouteProvider {
    /// Where records go.
    public let publisher: any RecordPublisher
    /// Credentials and limits.
    public let configuration: ReceiverConfiguration
    let authenticator: ReceiverAuthenticator
    let admission: ReceiverAdmission
    let metrics = ReceiverMetrics()

    /// - Parameters:
    ///   - publisher: Where records go (Kafka).
    ///   - configuration: Credentials and limits.
    public init(publisher: any RecordPublisher, configuration: ReceiverConfiguration) {
        self.publisher = publisher
        self.configuration = configuration
        self.authenticator = ReceiverAuthenticator(configuration: configuration)
        self.admission = ReceiverAdmission(limit: configuration.maximumConcurrentRequests)
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        router.post("/v1/firehose/:stream") { request, context -> Response in
            await firehose(request, stream: context.parameters.get("stream") ?? "", logger: context.logger)
        }
        router.post("/v1/eventbridge/contact-events") { request, context -> Response in
            try await eventBridge(request, context: context)
        }
    }

    static let requestIDField = HTTPFields.Element.Name(ReceiverConfiguration.requestIDHeader)!
    static let protocolVersionField = HTTPFields.Element.Name(ReceiverConfiguration.protocolVersionHeader)!

    // MARK: Firehose

    /// How a Firehose request failed after it was admitted.
    enum Failure: Error {
        case tooLarge
        case malformed(String)
        case publish(PublishFailure)
    }

    /// Answers one Firehose delivery request; never throws (every answer follows the contract).
    func firehose(_ request: Request, stream name: String, logger: Logger) async -> Response {
        var requestId = request.headers[Self.requestIDField].map(Self.printable) ?? ""
        var logger = logger
        if !requestId.isEmpty { logger[metadataKey: "firehose_request_id"] = .string(requestId) }
        let stream = ConnectStream(rawValue: name)
        func answer(_ status: HTTPResponse.Status, _ message: String? = nil) -> Response {
            metrics.request(route: "firehose", stream: stream, status: Int(status.code))
            if let message {
                logger.log(
                    level: status.code >= 500 || status == .tooManyRequests ? .warning : .notice,
                    "firehose request refused: \(status.code) \(message)")
            }
            return FirehoseResponse.make(status, requestId: requestId, errorMessage: message)
        }
        guard let stream else {
            return answer(
                .notFound,
                "unknown stream \"\(name)\": deliver to /v1/firehose/contact-records, /v1/firehose/agent-events or "
                    + "/v1/firehose/contact-events")
        }
        if let refusal = authenticator.refusal(firehose: request.headers) {
            metrics.rejectedKey(route: "firehose")
            return answer(.unauthorized, refusal)
        }
        if let version = request.headers[Self.protocolVersionField],
            !(version == "1" || version.hasPrefix("1."))
        {
            return answer(.badRequest, "protocol version \(version) is not supported; this endpoint implements 1.0")
        }
        let gzip: Bool?
        switch request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "identity", "none": gzip = nil  // Firehose sends no header: sniff the body
        case "gzip", "x-gzip": gzip = true
        case let other?:
            return answer(.badRequest, "Content-Encoding \(other) is not supported; use gzip or none")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > configuration.maximumBodyBytes {
            return answer(
                .contentTooLarge, "the body of \(length) bytes exceeds \(configuration.maximumBodyBytes) bytes")
        }
        guard admission.enter() else {
            return answer(
                .tooManyRequests, "\(admission.limit) requests are being received already; retry later")
        }
        metrics.inFlight.record(admission.count)
        defer {
            admission.leave()
            metrics.inFlight.record(admission.count)
        }
        let outcome: Result<Int, Failure>
        do throws(Failure) {
            outcome = .success(
                try await receive(request.body, stream: stream, gzip: gzip, requestId: &requestId, logger: logger))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let messages):
            logger.debug("firehose request stored: \(messages) messages")
            return answer(.ok)
        case .failure(.tooLarge):
            return answer(.contentTooLarge, "the body exceeds \(configuration.maximumBodyBytes) bytes")
        case .failure(.malformed(let message)):
            return answer(.badRequest, message)
        case .failure(.publish(let failure)):
            return answer(failure.kind == .overloaded ? .tooManyRequests : .serviceUnavailable, failure.description)
        }
    }

    /// Reads the body, publishing a window of messages at a time.
    ///
    /// - Returns: The number of messages stored.
    private func receive(
        _ body: RequestBody, stream: ConnectStream, gzip: Bool?, requestId: inout String, logger: Logger
    ) async throws(Failure) -> Int {
        let limit = configuration.maximumBodyBytes
        var parser = FirehoseRequestParser(maximumRecordBytes: configuration.maximumRecordBytes)
        let splitter = ConnectMessageSplitter(stream: stream, maximumMessageBytes: configuration.maximumMessageBytes)
        var inflater: GzipInflater?
        var sniffed = gzip != nil
        var received = 0
        var inflated = 0
        var pending: [ReceivedRecord] = []
        var pendingBytes = 0
        var stored = 0

        func take() {
            let id = requestId.isEmpty ? (parser.requestId.map(Self.printable) ?? "") : requestId
            for record in parser.takeRecords() {
                let messages = splitter.messages(of: record, requestId: id)
                if messages.isEmpty { metrics.empty(stream) }
                for message in messages {
                    pendingBytes += message.value.count
                    if message.rejection == nil { metrics.decoded(stream, bytes: message.value.count) }
                }
                pending += messages
            }
        }

        do {
            if gzip == true { inflater = try GzipInflater() }
            for try await buffer in body {
                received += buffer.readableBytes
                guard received <= limit else { throw Failure.tooLarge }
                if !sniffed {
                    sniffed = true
                    if GzipInflater.isGzip(buffer.readableBytesView) { inflater = try GzipInflater() }
                }
                try buffer.withUnsafeReadableBytes { bytes in
                    if let inflater {
                        try inflater.inflate(bytes) { piece in
                            inflated += piece.count
                            guard inflated <= limit else { throw Failure.tooLarge }
                            try parser.feed(piece)
                        }
                    } else {
                        try parser.feed(bytes)
                    }
                }
                take()
                if pendingBytes >= configuration.publishWindowBytes {
                    stored += try await publish(pending, requestId: requestId)
                    pending.removeAll(keepingCapacity: true)
                    pendingBytes = 0
                }
            }
            metrics.received(stream, bytes: received)
            try inflater?.finish()
            try parser.finish()
            take()
        } catch let failure as Failure {
            metrics.received(stream, bytes: received)
            throw failure
        } catch let error as FirehoseRequestError {
            throw .malformed(error.message)
        } catch let error as GzipError {
            throw .malformed("the gzip body cannot be inflated: \(error.message)")
        } catch {
            logger.debug("firehose body unreadable: \(error)")
            throw .malformed("the body could not be read: \(error)")
        }
        if requestId.isEmpty { requestId = parser.requestId.map(Self.printable) ?? "" }
        if !pending.isEmpty { stored += try await publish(pending, requestId: requestId) }
        return stored
    }

    private func publish(_ records: [ReceivedRecord], requestId: String) async throws(Failure) -> Int {
        let start = ContinuousClock.now
        do {
            try await publisher.publish(records)
        } catch {
            throw .publish(error)
        }
        metrics.published(records, elapsed: start.duration(to: .now))
        return records.count
    }

    /// A request id safe to log and echo: printable ASCII, at most 256 characters.
    static func printable(_ id: String) -> String {
        String(String.UnicodeScalarView(id.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(256)))
    }

    // MARK: EventBridge

    /// Answers one EventBridge API destination request: one contact event.
    func eventBridge(_ request: Request, context: SwitchboardRequestContext) async throws(APIError) -> Response {
        do {
            let response = try await storeEvent(request, context: context)
            metrics.request(route: "eventbridge", stream: .contactEvents, status: Int(response.status.code))
            return response
        } catch {
            metrics.request(route: "eventbridge", stream: .contactEvents, status: Int(error.status.code))
            if error.status != .unauthorized { context.logger.notice("eventbridge event refused: \(error)") }
            throw error
        }
    }

    private func storeEvent(_ request: Request, context: SwitchboardRequestContext) async throws(APIError)
        -> Response
    {
        if let refusal = authenticator.refusal(eventBridge: request.headers) {
            metrics.rejectedKey(route: "eventbridge")
            throw APIError(
                .unauthorized, code: "unauthorized", reason: refusal,
                headers: [.wwwAuthenticate: "Basic realm=\"switchboard-receiver\""])
        }
        guard admission.enter() else {
            throw APIError(
                .tooManyRequests, code: "too_many_requests",
                reason: "\(admission.limit) requests are being received already; retry later")
        }
        defer { admission.leave() }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maximumEventBytes)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw .payloadTooLarge(limit: configuration.maximumEventBytes)
        } catch {
            throw .badRequest("the body could not be read")
        }
        metrics.received(.contactEvents, bytes: body.readableBytes)
        let splitter = ConnectMessageSplitter(
            stream: .contactEvents, maximumMessageBytes: configuration.maximumMessageBytes)
        let event = Array(body.readableBytesView)
        let record = splitter.message(event, requestId: context.id, origin: "eventbridge \(context.id)")
        if let rejection = record.rejection {
            throw .badRequest("not an Amazon Connect contact event: \(rejection)")
        }
        metrics.decoded(.contactEvents, bytes: event.count)
        do {
            _ = try await publish([record], requestId: context.id)
        } catch .publish(let failure) {
            throw APIError(
                failure.kind == .overloaded ? .tooManyRequests : .serviceUnavailable,
                code: failure.kind == .overloaded ? "too_many_requests" : "kafka_unavailable",
                reason: failure.description)
        } catch {
            throw APIError(.internalServerError, code: "internal_error", reason: "internal error")
        }
        return JSONResponse.make(["status": "stored"])
    }
}
