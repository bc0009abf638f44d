/// A record as the ingest receives it from its source (Kafka), before decoding.
///
/// Storage declares its own type so it does not import the Kafka adapter; the executable maps
/// Kafka records onto it.
public struct SourceRecord: Sendable, Hashable {
    /// The topic the record came from.
    public var topic: String
    /// The partition within the topic (`-1` for records imported from files).
    public var partition: Int32
    /// The offset within the partition (the position within the files for imports).
    public var offset: Int64
    /// The record's key.
    public var key: [UInt8]?
    /// The record's value; `nil` for a tombstone.
    public var value: [UInt8]?
    /// Why the component that put the record on Kafka already found it impossible to ingest (the
    /// receiver marks a Firehose payload it could not decode, e.g. invalid base64), or `nil`.
    /// Such a record goes to the dead-letter table with this reason, whatever it holds.
    public var rejection: String?
    /// Where the record entered the pipeline, when its producer said so (the receiver's
    /// `firehose <request id> record <n>`); named in its dead-letter reason.
    public var origin: String?

    /// Creates a source record.
    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?, rejection: String? = nil,
        origin: String? = nil
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.rejection = rejection
        self.origin = origin
    }

    /// The record's topic and partition.
    public var partitionKey: PartitionKey { PartitionKey(topic: topic, partition: partition) }
}

/// A topic and partition, as keys of the offset table.
public struct PartitionKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The topic.
    public var topic: String
    /// The partition.
    public var partition: Int32

    /// Creates a key.
    public init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public static func < (lhs: PartitionKey, rhs: PartitionKey) -> Bool {
        (lhs.topic, lhs.partition) < (rhs.topic, rhs.partition)
    }

    public var description: String { "\(topic)[\(partition)]" }
}

/// The names of the three ingested topics and what each carries.
public struct IngestTopics: Sendable, Hashable {
    /// The CTR topic.
    public var contactRecords: String
    /// The agent event topic.
    public var agentEvents: String
    /// The contact event topic.
    public var contactEvents: String

    /// Creates the topic names (the defaults are `SWITCHBOARD_TOPIC_*`'s, docs/architecture.md).
    public init(
        contactRecords: String = "contact-records",
        agentEvents: String = "agent-events",
        contactEvents: String = "contact-events"
    ) {
        self.contactRecords = contactRecords
        self.agentEvents = agentEvents
        self.contactEvents = contactEvents
    }

    /// All three, in a fixed order.
    public var all: [String] { [contactRecords, agentEvents, contactEvents] }
}
