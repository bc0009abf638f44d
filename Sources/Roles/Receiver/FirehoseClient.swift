import ContactCenter
import Foundation
import Primitives

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

    /// The request for a prepared body (see ``body(requestId:timestamp:records:)``).
    public func request(stream: ConnectStream, requestId: String, body: [UInt8]) throws -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(stream.rawValue))
        request.httpMethod = "POST"
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("1.0", forHTTPHeaderField: "X-Amz-Firehose-Protocol-Version")
        request.setValue(requestId, forHTTPHeaderField: "X-Amz-Firehose-Request-Id")
        request.setValue(
            "arn:aws:firehose:ap-northeast-1:123456789012:deliverystream/switchboard-\(stream.rawValue)",
            forHTTPHeaderField: "X-Amz-Firehose-Source-Arn")
        if let accessKey { request.setValue(accessKey, forHTTPHeaderField: "X-Amz-Firehose-Access-Key") }
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
            request.setValue(writer.text, forHTTPHeaderField: "X-Amz-Firehose-Common-Attributes")
        }
        if gzip {
            request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
            request.httpBody = Data(try GzipDeflater.compress(body, level: 1))
        } else {
            request.httpBody = Data(body)
        }
        return request
    }

    /// Sends one attempt.
    public func attempt(
        stream: ConnectStream, requestId: String, body: [UInt8], session: URLSession = .shared
    ) async -> Attempt {
        do {
            let (data, response) = try await session.data(
                for: request(stream: stream, requestId: requestId, body: body))
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let text = String(decoding: data, as: UTF8.self)
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            let contentType = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
            let delivered =
                status == 200 && contentType.hasPrefix("application/json")
                && json?["requestId"] as? String == requestId && json?["timestamp"] is NSNumber
            return Attempt(status: status, body: text, delivered: delivered)
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
