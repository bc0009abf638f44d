import ContactCenter

/// Where the receiver puts what Amazon Connect sent: Kafka, in production (the executable
/// implements this port over its producer; the HTTP adapter never imports the Kafka adapter).
public protocol RecordPublisher: Sendable {
    /// Writes every record and returns once all of them are durably stored (Kafka acknowledged
    /// each one, `acks=all`).
    ///
    /// - Important: Records with the same ``ReceivedRecord/key`` must be written in the order
    ///   given: one agent's events are ordered by their key.
    /// - Throws: ``PublishFailure`` when any record was not stored; the receiver then answers a
    ///   retriable error, and the sender sends the whole request again.
    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure)
}

/// One message for Kafka: a JSON object as Amazon Connect wrote it, or a payload that can never
/// be ingested, marked so the ingest dead-letters it with the reason.
public struct ReceivedRecord: Sendable, Hashable {
    /// The stream (and so the topic) it belongs to.
    public var stream: ConnectStream
    /// The Kafka key: the stream's key (``ContactCenter/ConnectStream/key(of:)``); for a rejected
    /// payload, the request id.
    public var key: [UInt8]
    /// The bytes as the source wrote them (for a rejected payload, an excerpt at most 64 KiB).
    public var value: [UInt8]
    /// Why the payload can never be ingested, or `nil` for a message the ingest will decode.
    /// The ingest stores such a payload in `dead_letter` with this reason and moves on.
    public var rejection: String?
    /// Where it came from, for logs and dead letters: `firehose <request id> record <n>` or
    /// `eventbridge <event id>`.
    public var origin: String

    /// - Parameters: see the properties.
    public init(stream: ConnectStream, key: [UInt8], value: [UInt8], rejection: String? = nil, origin: String) {
        self.stream = stream
        self.key = key
        self.value = value
        self.rejection = rejection
        self.origin = origin
    }
}

/// Some records of a ``RecordPublisher/publish(_:)`` call were not stored.
public struct PublishFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// How the receiver answers it.
    public enum Kind: Sendable, Hashable {
        /// Kafka is unreachable or refused the records: 503, the sender retries.
        case unavailable
        /// The producer's queue is full: 429, the sender backs off.
        case overloaded
    }

    public var kind: Kind
    /// Records not stored.
    public var failed: Int
    /// Records in the call.
    public var total: Int
    /// The first error, for the answer and the logs.
    public var message: String

    /// - Parameters: see the properties.
    public init(kind: Kind, failed: Int, total: Int, message: String) {
        self.kind = kind
        self.failed = failed
        self.total = total
        self.message = message
    }

    public var description: String { "\(failed) of \(total) records not stored in Kafka: \(message)" }
}
