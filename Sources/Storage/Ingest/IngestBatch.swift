import ContactCenter

/// One decoded batch: the rows for each table, the dead letters, and the next offset of every
/// partition the batch covers. Written in one transaction by ``IngestWriter``.
public struct IngestBatch: Sendable {
    /// A decoded record with where it came from.
    public struct Sourced<Value: Sendable>: Sendable {
        /// The decoded value.
        public var value: Value
        /// The partition it came from.
        public var partition: Int32
        /// Its offset.
        public var offset: Int64
    }

    /// Contact trace records, de-duplicated per contact (the newest copy of the batch kept).
    public var contactRecords: [Sourced<ContactTraceRecord>] = []
    /// How many copies of each contact the batch held (for `versions_seen`).
    public var contactRecordCopies: [String: Int] = [:]
    /// Agent events, de-duplicated by event id.
    public var agentEvents: [Sourced<AgentEvent>] = []
    /// Contact events, de-duplicated by event id.
    public var contactEvents: [Sourced<ContactEvent>] = []
    /// Records that could not be decoded or validated.
    public var deadLetters: [DeadLetter] = []
    /// Per partition, the offset after the last record of the batch.
    public var nextOffsets: [PartitionKey: Int64] = [:]

    /// Creates an empty batch.
    public init() {}

    /// The number of source records the batch covers (rows, duplicates and dead letters).
    public var sourceRecordCount: Int = 0

    /// Whether the batch writes nothing.
    public var isEmpty: Bool { sourceRecordCount == 0 && nextOffsets.isEmpty }
}

/// A record that goes to the dead-letter table, with the reason.
public struct DeadLetter: Sendable, Hashable {
    /// Where it came from.
    public var topic: String
    /// Its partition.
    public var partition: Int32
    /// Its offset.
    public var offset: Int64
    /// Its key bytes.
    public var key: [UInt8]?
    /// Its value bytes (`nil` for a tombstone).
    public var value: [UInt8]?
    /// Why it was refused: a machine-friendly kind and the precise message.
    public var reason: DeadLetterReason

    /// Creates a dead letter.
    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?, reason: DeadLetterReason
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.reason = reason
    }
}

/// Why a record was refused.
public struct DeadLetterReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// A short kind, used as the metrics dimension: `tombstone`, `too_large`, `invalid`,
    /// `unknown_topic`, `rejected` (marked undecodable by the producer, see ``SourceRecord/rejection``).
    public var kind: String
    /// The precise message (field path and reason for validation errors).
    public var message: String

    /// Creates a reason.
    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}
