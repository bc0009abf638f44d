/// The application's say in partition assignment: where each assigned partition starts, and
/// notice of partitions taken away.
///
/// This is how exactly-once ingest works: on assignment the handler claims the partitions in
/// PostgreSQL and returns the next offsets stored there; the consumer starts exactly at them.
/// Both methods are called between batches (never while the application processes one), on the
/// consumer's own thread, which waits for them; they must finish within the consumer's
/// `assignmentHandlerTimeout`.
public protocol KafkaAssignmentHandler: Sendable {
    /// Partitions were assigned to this consumer.
    ///
    /// - Returns: Where each partition starts; partitions left out start at their committed offset.
    /// - Throws: Any error makes the consumer's next `poll` throw ``KafkaError`` `.assignmentHandler`;
    ///   the application should then close the consumer and create a new one.
    func partitionsAssigned(_ partitions: [TopicPartition]) async throws -> [TopicPartition: KafkaStartOffset]

    /// Partitions were revoked from this consumer (`lost == true`: taken away without a clean
    /// hand-over, for example after a missed session timeout). Write nothing more for them.
    func partitionsRevoked(_ partitions: [TopicPartition], lost: Bool) async
}

/// Starts every assigned partition at the group's committed offset, like a plain Kafka consumer.
public struct CommittedOffsetsAssignmentHandler: KafkaAssignmentHandler {
    /// Creates the handler.
    public init() {}

    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws -> [TopicPartition: KafkaStartOffset] {
        [:]
    }

    public func partitionsRevoked(_ partitions: [TopicPartition], lost: Bool) async {}
}

/// A batch returned by ``KafkaConsumer/poll(maxRecords:maxWait:)``.
public struct KafkaBatch: Sendable {
    /// The records, in order per partition. Records of partitions revoked during the poll are removed.
    public var records: [KafkaRecord]
    /// Non-fatal consumer errors seen while polling (for example a partition whose stored offset
    /// fell off the log: `_AUTO_OFFSET_RESET`). Fatal errors are thrown instead.
    public var errors: [KafkaError]
}
