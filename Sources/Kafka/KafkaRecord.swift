/// A topic and one of its partitions.
public struct TopicPartition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The topic's name.
    public var topic: String
    /// The partition's number within the topic.
    public var partition: Int32

    /// Creates a topic-partition pair.
    public init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public static func < (lhs: TopicPartition, rhs: TopicPartition) -> Bool {
        (lhs.topic, lhs.partition) < (rhs.topic, rhs.partition)
    }

    public var description: String { "\(topic)[\(partition)]" }
}

/// A header of a Kafka record. The value may be absent (a null header value is legal in Kafka).
public struct KafkaHeader: Hashable, Sendable {
    /// The header's name.
    public var key: String
    /// The header's value bytes, or `nil` for a null value.
    public var value: [UInt8]?

    /// Creates a header.
    public init(key: String, value: [UInt8]?) {
        self.key = key
        self.value = value
    }
}

/// A record read from Kafka, copied out of librdkafka's buffers.
///
/// A record whose value is `nil` is a tombstone; the binding never crashes on it.
public struct KafkaRecord: Sendable, Hashable {
    /// The topic and partition the record was read from.
    public var topicPartition: TopicPartition
    /// The record's offset within its partition.
    public var offset: Int64
    /// The record's key, or `nil` when it has none.
    public var key: [UInt8]?
    /// The record's value, or `nil` for a tombstone.
    public var value: [UInt8]?
    /// The record's headers.
    public var headers: [KafkaHeader]
    /// The record's timestamp in milliseconds since the epoch, when the broker or producer set one.
    public var timestampMilliseconds: Int64?

    /// Creates a record (tests and replays build records by hand).
    public init(
        topicPartition: TopicPartition,
        offset: Int64,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: [KafkaHeader] = [],
        timestampMilliseconds: Int64? = nil
    ) {
        self.topicPartition = topicPartition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMilliseconds = timestampMilliseconds
    }

    /// The record's topic.
    public var topic: String { topicPartition.topic }
    /// The record's partition.
    public var partition: Int32 { topicPartition.partition }
}

/// Where a partition starts when it is assigned.
public enum KafkaStartOffset: Hashable, Sendable {
    /// The exact offset (for example the next offset stored in PostgreSQL).
    case offset(Int64)
    /// The oldest offset still in the log.
    case beginning
    /// The end of the log: only records produced from now on.
    case end
    /// The group's committed offset in Kafka, falling back to `auto.offset.reset`.
    case committed

    var rawOffset: Int64 {
        switch self {
        case .offset(let value): value
        case .beginning: -2  // RD_KAFKA_OFFSET_BEGINNING
        case .end: -1  // RD_KAFKA_OFFSET_END
        case .committed: -1001  // RD_KAFKA_OFFSET_INVALID: use the committed offset
        }
    }
}
