import Foundation
import Logging
import PostgresNIO

/// A row of the dead-letter table, as `switchboard dlq list` shows it.
public struct DeadLetterEntry: Sendable, Hashable {
    /// The row's id (for `dlq replay --id`).
    public var id: Int64
    /// Where the record came from.
    public var topic: String
    /// Its partition.
    public var partition: Int32
    /// Its offset.
    public var offset: Int64
    /// The size of its value in bytes (0 for a tombstone).
    public var size: Int
    /// Why it was refused.
    public var error: String
    /// When it was first refused.
    public var firstSeen: Date
    /// When it was replayed into the tables, if it was.
    public var replayedAt: Date?
}

/// What a replay did.
public struct DeadLetterReplayResult: Sendable, Hashable {
    /// Records that now decode and were moved into the tables.
    public var replayed: Int = 0
    /// Records that still fail; their error was updated.
    public var stillInvalid: Int = 0
}

/// Lists and replays dead letters.
public struct DeadLetterStore: Sendable {
    private let client: PostgresClient
    private let logger: Logger

    /// Creates the store.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The newest dead letters first.
    ///
    /// - Parameters:
    ///   - limit: The most rows.
    ///   - includeReplayed: Whether to include rows already replayed.
    public func list(limit: Int = 100, includeReplayed: Bool = false) async throws -> [DeadLetterEntry] {
        let rows = try await client.query(
            """
            SELECT id, topic, partition, "offset", coalesce(length(value), 0), error, first_seen, replayed_at
            FROM dead_letter
            WHERE \(includeReplayed) OR replayed_at IS NULL
            ORDER BY id DESC LIMIT \(limit)
            """,
            logger: logger
        )
        var entries: [DeadLetterEntry] = []
        for try await (id, topic, partition, offset, size, error, firstSeen, replayedAt) in rows.decode(
            (Int64, String, Int32, Int64, Int, String, Date, Date?).self
        ) {
            entries.append(
                DeadLetterEntry(
                    id: id, topic: topic, partition: partition, offset: offset, size: size, error: error,
                    firstSeen: firstSeen, replayedAt: replayedAt
                )
            )
        }
        return entries
    }

    /// Re-validates dead letters (all pending ones, or those with `ids`) and moves the ones that
    /// now decode into the tables, under the same version guard, in one transaction.
    public func replay(ids: [Int64]?, decoder: IngestDecoder) async throws -> DeadLetterReplayResult {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var idColumn = ArrayColumn<Int64>()
            for id in ids ?? [] { idColumn.append(id) }
            let all = ids == nil
            let rows = try await connection.query(
                """
                SELECT id, topic, partition, "offset", key, value FROM dead_letter
                WHERE replayed_at IS NULL AND (\(all) OR id = ANY(\(idColumn)))
                ORDER BY id FOR UPDATE
                """,
                logger: logger
            )
            var records: [(Int64, SourceRecord)] = []
            for try await (id, topic, partition, offset, key, value) in rows.decode(
                (Int64, String, Int32, Int64, ByteBuffer?, ByteBuffer?).self
            ) {
                let source = SourceRecord(
                    topic: topic,
                    partition: partition,
                    offset: offset,
                    key: key.map { Array($0.readableBytesView) },
                    value: value.map { Array($0.readableBytesView) }
                )
                records.append((id, source))
            }
            var result = DeadLetterReplayResult()
            var fixed: [SourceRecord] = []
            var replayedIDs = ArrayColumn<Int64>()
            for (id, record) in records {
                switch decoder.decodeOne(record) {
                case .success:
                    fixed.append(record)
                    replayedIDs.append(id)
                    result.replayed += 1
                case .failure(let reason):
                    result.stillInvalid += 1
                    try await connection.query(
                        "UPDATE dead_letter SET error = \(reason.description) WHERE id = \(id)",
                        logger: logger
                    )
                }
            }
            if !fixed.isEmpty {
                var batch = decoder.decode(fixed)
                batch.deadLetters = []
                _ = try await IngestWriter.writeRows(batch, on: connection, logger: logger)
                try await connection.query(
                    "UPDATE dead_letter SET replayed_at = now() WHERE id = ANY(\(replayedIDs))",
                    logger: logger
                )
            }
            return result
        }
    }
}
