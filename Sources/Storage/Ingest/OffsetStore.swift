import Logging
import PostgresNIO

/// A partition's claim by one worker: where it resumes and the epoch that fences its writes.
public struct PartitionClaim: Sendable, Hashable {
    /// The next offset stored for the partition, or `nil` when none was stored yet.
    public var nextOffset: Int64?
    /// The owner epoch this worker must present on every write.
    public var epoch: Int64

    /// Creates a claim.
    public init(nextOffset: Int64?, epoch: Int64) {
        self.nextOffset = nextOffset
        self.epoch = epoch
    }
}

/// The offset table: the truth about where each partition of a consumer group resumes.
///
/// Claiming a partition bumps its owner epoch; every batch write advances offsets only under the
/// epoch its worker claimed, so a zombie worker (one that lost its partitions without knowing)
/// cannot commit: its write is fenced and rolled back.
public struct OffsetStore: Sendable {
    private let client: PostgresClient
    private let group: String
    private let logger: Logger

    /// Creates the store for consumer group `group`.
    public init(client: PostgresClient, group: String, logger: Logger) {
        self.client = client
        self.group = group
        self.logger = logger
    }

    /// Claims `partitions` for the caller: bumps their owner epochs and reads their next offsets.
    ///
    /// Partitions are locked in a fixed order, so concurrent claims cannot deadlock. A claim waits
    /// for an in-flight batch of the previous owner to commit (it holds the offset row), then sees
    /// that batch's offsets.
    public func claim(_ partitions: [PartitionKey]) async throws -> [PartitionKey: PartitionClaim] {
        guard !partitions.isEmpty else { return [:] }
        let sorted = Array(Set(partitions)).sorted()
        var topics = ArrayColumn<String>()
        var numbers = ArrayColumn<Int32>()
        for partition in sorted {
            topics.append(partition.topic)
            numbers.append(partition.partition)
        }
        let rows = try await client.query(
            """
            INSERT INTO consumer_offset (consumer_group, topic, partition, next_offset, owner_epoch)
            SELECT \(group), v.topic, v.partition, -1, 1
            FROM unnest(\(topics), \(numbers)) WITH ORDINALITY AS v(topic, partition, position)
            ORDER BY v.position
            ON CONFLICT (consumer_group, topic, partition)
            DO UPDATE SET owner_epoch = consumer_offset.owner_epoch + 1, updated_at = now()
            RETURNING topic, partition, next_offset, owner_epoch
            """,
            logger: logger
        )
        var claims: [PartitionKey: PartitionClaim] = [:]
        for try await (topic, partition, next, epoch) in rows.decode((String, Int32, Int64, Int64).self) {
            claims[PartitionKey(topic: topic, partition: partition)] = PartitionClaim(
                nextOffset: next >= 0 ? next : nil,
                epoch: epoch
            )
        }
        return claims
    }

    /// The stored next offset of every partition of the group (for lag, tests and operators).
    public func nextOffsets() async throws -> [PartitionKey: Int64] {
        let rows = try await client.query(
            "SELECT topic, partition, next_offset FROM consumer_offset WHERE consumer_group = \(group)",
            logger: logger
        )
        var result: [PartitionKey: Int64] = [:]
        for try await (topic, partition, next) in rows.decode((String, Int32, Int64).self) where next >= 0 {
            result[PartitionKey(topic: topic, partition: partition)] = next
        }
        return result
    }

    /// Advances the offsets of one batch inside its transaction, under the worker's epochs.
    ///
    /// - Throws: ``StorageError`` `.fenced` when any partition's epoch changed: another worker owns
    ///   it now, and the caller's transaction must roll back.
    static func advance(
        _ nextOffsets: [PartitionKey: Int64],
        epochs: [PartitionKey: Int64],
        group: String,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard !nextOffsets.isEmpty else { return }
        var topics = ArrayColumn<String>()
        var numbers = ArrayColumn<Int32>()
        var offsets = ArrayColumn<Int64>()
        var owners = ArrayColumn<Int64>()
        for (partition, next) in nextOffsets.sorted(by: { $0.key < $1.key }) {
            guard let epoch = epochs[partition] else {
                throw StorageError(
                    code: .fenced, message: "no claim for \(partition): it is not assigned to this worker")
            }
            topics.append(partition.topic)
            numbers.append(partition.partition)
            offsets.append(next)
            owners.append(epoch)
        }
        let rows = try await connection.query(
            """
            UPDATE consumer_offset AS o
            SET next_offset = v.next_offset, updated_at = now()
            FROM unnest(\(topics), \(numbers), \(offsets), \(owners)) AS v(topic, partition, next_offset, owner_epoch)
            WHERE o.consumer_group = \(group) AND o.topic = v.topic AND o.partition = v.partition
              AND o.owner_epoch = v.owner_epoch
            RETURNING o.partition
            """,
            logger: logger
        )
        let updated = try await IngestWriter.rowCount(rows)
        if updated != nextOffsets.count {
            throw StorageError(
                code: .fenced,
                message:
                    "\(nextOffsets.count - updated) of \(nextOffsets.count) partitions are owned by another worker now"
            )
        }
    }
}
