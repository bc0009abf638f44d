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
        let rows = try await statement(
            """
            INSERT INTO consumer_offset (consumer_group, topic, partition, next_offset, owner_epoch)
            SELECT \(group), v.topic, v.partition, -1, 1
            FROM unnest(\(topics), \(numbers)) WITH ORDINALITY AS v(topic, partition, position)
            ORDER BY v.position
            ON CONFLICT (consumer_group, topic, partition)
            DO UPDATE SET owner_epoch = consumer_offset.owner_epoch + 1, updated_at = now()
            RETURNING topic, partition, next_offset, owner_epoch
            """
        )
        var claims: [PartitionKey: PartitionClaim] = [:]
        for row in rows {
            let (topic, partition, next, epoch) = try row.decode((String, Int32, Int64, Int64).self)
            claims[PartitionKey(topic: topic, partition: partition)] = PartitionClaim(
                nextOffset: next >= 0 ? next : nil,
                epoch: epoch
            )
        }
        return claims
    }

    /// The stored next offset of every partition of the group (for lag, tests and operators).
    public func nextOffsets() async throws -> [PartitionKey: Int64] {
        let rows = try await statement(
            "SELECT topic, partition, next_offset FROM consumer_offset WHERE consumer_group = \(group)"
        )
        var result: [PartitionKey: Int64] = [:]
        for row in rows {
            let (topic, partition, next) = try row.decode((String, Int32, Int64).self)
            if next >= 0 { result[PartitionKey(topic: topic, partition: partition)] = next }
        }
        return result
    }

    /// Deletes every offset stored for the group and returns how many partitions had one.
    ///
    /// For a broker whose topics start empty again (`switchboard dev`'s embedded cluster is new on
    /// every run): offsets kept from an earlier broker point past the new topics' ends, and the
    /// consumer would refuse them (`auto.offset.reset=error`) instead of reading from the start.
    @discardableResult
    public func forget() async throws -> Int {
        let rows = try await statement(
            "DELETE FROM consumer_offset WHERE consumer_group = \(group) RETURNING partition"
        )
        return rows.count
    }

    /// Runs one statement on a connection of the client's pool; its wait ends when the connection
    /// closes or the caller is cancelled (``Transaction/statement(_:on:logger:)``).
    private func statement(_ query: PostgresQuery) async throws -> PostgresQueryResult {
        try await client.withConnection { connection in
            do {
                return try await Transaction.statement(query, on: connection, logger: logger)
            } catch {
                // The connection may be closing (a cancelled statement closes it): the pool must
                // see that before the lease ends, or it could lend the connection again.
                if connection.isClosed || Task.isCancelled { await connection.closeAndWait() }
                throw error
            }
        }
    }

    /// Advances the offsets of one batch inside its transaction, from where the batch's claims say
    /// they are.
    ///
    /// A compare-and-set: each partition's offset moves to the batch's next offset only if the
    /// partition is still owned under the claim's epoch, its stored offset is the claim's (the
    /// offset this batch follows) and it is not past the batch's first record (`firstOffsets`).
    /// So a batch is applied at most once even when an attempt whose outcome was not known (a
    /// timeout, a connection lost after `COMMIT`) committed it: a second attempt waits for the
    /// first's row locks, then finds the offsets past the batch. And no record is applied twice
    /// when a partition is claimed again while a part of it taken under the earlier claim is still
    /// queued: that part is written under the new claim and moves the offset past its records, so
    /// the same records, read again from where the claim said the partition resumed, start before
    /// the stored offset and are refused (the worker re-joins and resumes after them).
    ///
    /// - Throws: ``StorageError`` `.alreadyWritten` when every partition's offset is the batch's
    ///   next offset already (the caller's transaction must roll back: the batch is stored);
    ///   `.fenced` when another worker owns a partition now, or a stored offset is neither the
    ///   claimed one nor past this batch (the caller must roll back and re-join, which re-reads
    ///   the stored offsets).
    static func advance(
        _ nextOffsets: [PartitionKey: Int64],
        firstOffsets: [PartitionKey: Int64],
        from claims: [PartitionKey: PartitionClaim],
        group: String,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard !nextOffsets.isEmpty else { return }
        var topics = ArrayColumn<String>()
        var numbers = ArrayColumn<Int32>()
        var offsets = ArrayColumn<Int64>()
        var owners = ArrayColumn<Int64>()
        var previous = ArrayColumn<Int64>()
        var firsts = ArrayColumn<Int64>()
        for (partition, next) in nextOffsets.sorted(by: { $0.key < $1.key }) {
            guard let claim = claims[partition] else {
                throw StorageError(
                    code: .fenced, message: "no claim for \(partition): it is not assigned to this worker")
            }
            topics.append(partition.topic)
            numbers.append(partition.partition)
            offsets.append(next)
            owners.append(claim.epoch)
            previous.append(claim.nextOffset ?? -1)
            firsts.append(firstOffsets[partition] ?? .max)
        }
        let updated = try await Transaction.statement(
            """
            UPDATE consumer_offset AS o
            SET next_offset = v.next_offset, updated_at = now()
            FROM unnest(\(topics), \(numbers), \(offsets), \(owners), \(previous), \(firsts))
                AS v(topic, partition, next_offset, owner_epoch, previous, first_offset)
            WHERE o.consumer_group = \(group) AND o.topic = v.topic AND o.partition = v.partition
              AND o.owner_epoch = v.owner_epoch AND o.next_offset = v.previous AND o.next_offset <= v.first_offset
            RETURNING o.partition
            """,
            on: connection,
            logger: logger
        ).count
        guard updated != nextOffsets.count else { return }
        // Why not: read what is stored now (rare, so it costs nothing on the common path).
        let rows = try await Transaction.statement(
            """
            SELECT o.topic, o.partition, o.next_offset, o.owner_epoch
            FROM consumer_offset AS o
            JOIN unnest(\(topics), \(numbers)) AS v(topic, partition) ON o.topic = v.topic AND o.partition = v.partition
            WHERE o.consumer_group = \(group)
            """,
            on: connection,
            logger: logger
        )
        var stored: [PartitionKey: PartitionClaim] = [:]
        for row in rows {
            let (topic, partition, next, epoch) = try row.decode((String, Int32, Int64, Int64).self)
            stored[PartitionKey(topic: topic, partition: partition)] = PartitionClaim(nextOffset: next, epoch: epoch)
        }
        throw refusal(of: nextOffsets, firstOffsets: firstOffsets, claims: claims, stored: stored, updated: updated)
    }

    /// Why a batch's offsets could not advance, given what is stored now (`updated` of them were
    /// advanced by this transaction).
    static func refusal(
        of nextOffsets: [PartitionKey: Int64],
        firstOffsets: [PartitionKey: Int64],
        claims: [PartitionKey: PartitionClaim],
        stored: [PartitionKey: PartitionClaim],
        updated: Int
    ) -> StorageError {
        var foreign = 0
        var written = 0
        var elsewhere: [String] = []
        for (partition, next) in nextOffsets.sorted(by: { $0.key < $1.key }) {
            guard let claim = claims[partition], let row = stored[partition], row.epoch == claim.epoch else {
                foreign += 1
                continue
            }
            if row.nextOffset == next {
                written += 1
            } else if let first = firstOffsets[partition], let offset = row.nextOffset, offset > first {
                elsewhere.append(
                    "\(partition) starts at \(first), before its stored offset \(offset): records taken under an "
                        + "earlier claim were written since")
            } else {
                elsewhere.append(
                    "\(partition) is stored at \(row.nextOffset ?? -1), not at \(claim.nextOffset ?? -1) or \(next)")
            }
        }
        if foreign > 0 {
            return StorageError(
                code: .fenced,
                message: "\(foreign) of \(nextOffsets.count) partitions are owned by another worker now"
            )
        }
        // All or none: one transaction advances all of a batch's partitions.
        if written == nextOffsets.count && updated == 0 {
            return StorageError(
                code: .alreadyWritten,
                message: "the batch's offsets are stored already: an earlier attempt committed it")
        }
        return StorageError(
            code: .fenced,
            message: "stored offsets differ from this worker's claims (\(updated) of \(nextOffsets.count) advanced; "
                + "\(elsewhere.joined(separator: "; "))): re-join to re-read them"
        )
    }
}
