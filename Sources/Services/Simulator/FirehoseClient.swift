import AsyncHTTPClient
import ContactCenter
import Foundation
import NIOCore
import NIOFoundationCompat
import Primitives

/// Delivers records to an HTTP endpoint the way Amazon Data Firehose does (Firehose developer
/// guide, "Understand HTTP endpoint delivery request and response specifications"): a POST of
/// `{"requestId", "timestamp", "records": [{"data": <base64>}]}` with the
/// `X-Amz-Firehose-*` headers, optionally gzip-compressed; only a 200 whose body echoes the
/// request id is a delivery, and everything else is retried with the same request id (with
/// Firehose's back-off: 1 s doubling, ±15 % jitter, capped) except 413, which Firehose treats as
/// permanent.
///
/// The traffic simulator (`--via firehose`), the end-to-end tests and the benchmark use it.
public struct FirehoseClient: Sendable {
    /// The endpoint's base URL; a stream's records go to `<base>/<stream>`.
    public var baseURL: URL
    /// The access key sent as `X-Amz-Firehose-Access-Key`, if any.
    public var accessKey: String?
    /// Whether bodies are gzip-compressed (`Content-Encoding: gzip`).
    public var gzip: Bool
    /// The common attributes sent as `X-Amz-Firehose-Common-Attributes`.
    public var commonAttributes: [String: String]
    /// How long one attempt may take (Firehose waits 3 minutes).
    public var timeout: TimeInterval

    /// - Parameters: see the properties.
    public init(
        baseURL: URL, accessKey: String? = nil, gzip: Bool = true, commonAttributes: [String: String] = [:],
        timeout: TimeInterval = 180
    ) {
        self.baseURL = baseURL
        self.accessKey = accessKey
        self.gzip = gzip
        self.commonAttributes = commonAttributes
        self.timeout = timeout
    }

    /// One attempt's outcome.
    public struct Attempt: Sendable, Hashable {
        /// The HTTP status (0 when no answer came).
        public var status: Int
        /// The answer's body (or the transport error).
        public var body: String
        /// Whether the answer is a delivery by the contract: 200, JSON, the same request id and a
        /// numeric timestamp.
        public var delivered: Bool
    }

    /// The request body for `records` (each one record's bytes).
    public static func body(requestId: String, timestamp: Date = Date(), records: [Data]) -> [UInt8] {
        var writer = JSONWriter(capacity: records.reduce(64) { $0 + $1.count * 4 / 3 + 16 })
        writer.beginObject()
        writer.key("requestId")
        writer.string(requestId)
        writer.key("timestamp")
        writer.number(Int((timestamp.timeIntervalSince1970 * 1_000).rounded(.down)))
        writer.key("records")
        writer.beginArray()
        for record in records {
            writer.beginObject()
            writer.key("data")
            writer.string(record.base64EncodedString())
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// One POST as Firehose sends it: the URL, the headers and the (possibly gzip'd) body.
    public struct Request: Sendable {
        public var url: URL
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The value of header `name`, if any.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// The answer to one request.
    struct Answer: Decodable {
        var requestId: String?
        var timestamp: Double?
    }

    /// The request for a prepared body (see ``body(requestId:timestamp:records:)``).
    public func request(stream: ConnectStream, requestId: String, body: [UInt8]) throws -> Request {
        var request = Request(url: baseURL.appendingPathComponent(stream.rawValue), headers: [], body: [])
        request.headers.append(("Content-Type", "application/json"))
        request.headers.append(("X-Amz-Firehose-Protocol-Version", "1.0"))
        request.headers.append(("X-Amz-Firehose-Request-Id", requestId))
        request.headers.append(
            (
                "X-Amz-Firehose-Source-Arn",
                "arn:aws:firehose:ap-northeast-1:123456789012:deliverystream/switchboard-\(stream.rawValue)"
            ))
        if let accessKey { request.headers.append(("X-Amz-Firehose-Access-Key", accessKey)) }
        if !commonAttributes.isEmpty {
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("commonAttributes")
            writer.beginObject()
            for (name, value) in commonAttributes.sorted(by: { $0.key < $1.key }) {
                writer.key(name)
                writer.string(value)
            }
            writer.endObject()
            writer.endObject()
            request.headers.append(("X-Amz-Firehose-Common-Attributes", writer.text))
        }
        if gzip {
            request.headers.append(("Content-Encoding", "gzip"))
            request.body = try GzipDeflater.compress(body, level: 1)
        } else {
            request.body = body
        }
        return request
    }

    /// The largest answer read (Firehose's contract answers a few hundred bytes).
    static let maximumAnswerBytes = 1 << 20

    /// Sends one attempt (async-http-client's shared client).
    public func attempt(stream: ConnectStream, requestId: String, body: [UInt8]) async -> Attempt {
        do {
            let prepared = try request(stream: stream, requestId: requestId, body: body)
            var request = HTTPClientRequest(url: prepared.url.absoluteString)
            request.method = .POST
            for (name, value) in prepared.headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: prepared.body))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(timeout)))
            let data = Data(buffer: try await response.body.collect(upTo: Self.maximumAnswerBytes))
            let status = Int(response.status.code)
            let answer = try? JSONCoding.decode(Answer.self, from: data)
            let contentType = response.headers.first(name: "Content-Type") ?? ""
            let delivered =
                status == 200 && contentType.hasPrefix("application/json") && answer?.requestId == requestId
                && answer?.timestamp != nil
            return Attempt(status: status, body: String(decoding: data, as: UTF8.self), delivered: delivered)
        } catch {
            return Attempt(status: 0, body: "\(error)", delivered: false)
        }
    }

    /// Delivers `records` to `stream` as one request, retrying with the same request id until it
    /// is delivered, the endpoint answers 413, or `deadline` passes.
    ///
    /// - Parameters:
    ///   - onAttempt: Called after every attempt (tests and logs).
    /// - Returns: The last attempt.
    @discardableResult
    public func deliver(
        stream: ConnectStream, records: [Data], requestId: String = UUID().uuidString.lowercased(),
        deadline: Duration = .seconds(3_600), maximumBackoff: Duration = .seconds(120),
        onAttempt: @Sendable (Attempt) -> Void = { _ in }
    ) async throws -> Attempt {
        let body = Self.body(requestId: requestId, records: records)
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var retries = 0
        while true {
            let attempt = await attempt(stream: stream, requestId: requestId, body: body)
            onAttempt(attempt)
            if attempt.delivered || attempt.status == 413 || clock.now >= end { return attempt }
            // Firehose's documented back-off: 1 s × 2^n with ±15 % jitter, capped.
            let base = min(Double(1 << min(retries, 16)), maximumBackoff.inSeconds)
            retries += 1
            try await Task.sleep(for: .seconds(base * Double.random(in: 0.85...1.15)))
        }
    }
}
