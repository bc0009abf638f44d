import Foundation
import Logging
import PostgresNIO

/// The raw tables' monthly partitions and their retention (migration 10,
/// `Migrations/0010_raw_tables_partitioned_by_month_retention.sql`).
public struct RawRetentionStore: Sendable {
    /// A partition that retention drops (or would drop).
    public struct DroppedPartition: Sendable, Hashable {
        /// Its table's name (`contact_record_y2025m10`).
        public var name: String
        /// The end of its range (exclusive): the start of the next month.
        public var rangeEnd: Date
    }

    private let client: PostgresClient
    private let logger: Logger

    /// Creates a store over `client`.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Moves the retention horizon to the start of the UTC month `keepMonths` before the current
    /// one and drops the raw partitions that end at or before it, in one transaction. Rollups
    /// keep every period; the ingest refuses rows before the horizon from then on.
    ///
    /// - Parameter dryRun: Only list the partitions it would drop.
    /// - Returns: The partitions dropped (or that would be).
    public func apply(keepMonths: Int, dryRun: Bool) async throws -> [DroppedPartition] {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            let rows = try await connection.query(
                "SELECT partition_name, range_end FROM raw_retention_apply(\(keepMonths)::integer, \(dryRun))",
                logger: logger)
            var dropped: [DroppedPartition] = []
            for try await (name, end) in rows.decode((String, Date).self) {
                dropped.append(DroppedPartition(name: name, rangeEnd: end))
            }
            return dropped
        }
    }

    /// The retention horizon: raw rows before it were dropped. `nil` when nothing was.
    public func horizon() async throws -> Date? {
        let rows = try await client.query(
            "SELECT CASE WHEN horizon = '-infinity' THEN NULL ELSE horizon END FROM raw_retention", logger: logger)
        for try await horizon in rows.decode(Date?.self) { return horizon }
        return nil
    }

    /// Creates the partitions of `months`, of the current month and of `ahead` months after it
    /// (moving rows out of the default partitions). - Returns: How many were created.
    @discardableResult
    public func ensurePartitions(months: [Date] = [], ahead: Int = 2) async throws -> Int {
        let rows = try await client.query(
            "SELECT raw_partitions_ensure(\(months)::timestamptz[], \(ahead)::integer)", logger: logger)
        for try await created in rows.decode(Int.self) { return created }
        return 0
    }
}
