import Foundation
import Logging
import PostgresNIO

/// Recomputes the analyst rollups (`queue_interval_rollup`, `store_day_rollup`,
/// `agent_status_rollup`, `agent_interval_rollup`) from the raw tables.
///
/// The ingest keeps the rollups in the transaction of the rows they summarize, and a change of
/// the settings, stores, business days or holidays rebuilds the contact rollups in its own
/// transaction; a rebuild is for what neither sees: a changed definition (a new migration), rows
/// written or edited by hand, a doubt.
public struct RollupStore: Sendable {
    private let client: PostgresClient
    private let logger: Logger

    /// Creates the store.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// What a rebuild wrote.
    public struct Counts: Sendable, Hashable {
        /// Rows of `queue_interval_rollup` in the range.
        public var queueIntervals: Int
        /// Rows of `store_day_rollup` in the range's business dates.
        public var storeDays: Int
        /// Rows of `agent_interval_rollup` in the range.
        public var agentIntervals: Int
    }

    /// Where a rebuild is, for a progress line.
    public struct RebuildProgress: Sendable, Hashable {
        /// What the rebuild does now: `rollups` (a month's contacts and agents), `latest events`
        /// or `counting`.
        public var phase: String
        /// The month being rebuilt (`2026-11`, in the business time zone); `nil` outside `rollups`
        /// or when the raw tables are empty.
        public var month: String?
        /// Months rebuilt so far.
        public var monthsDone: Int
        /// Months in the range.
        public var months: Int
        /// Rollup rows (queue and agent intervals) the months rebuilt so far hold.
        public var rows: Int
    }

    /// Recomputes every rollup for `[from, to)`, in one transaction, month by month.
    ///
    /// - Parameters:
    ///   - from: The first instant, as PostgreSQL reads a `timestamptz` (`2026-11-01T00:00:00Z`),
    ///     or a date (`2026-11-01`: its midnight in `analytics_time_zone()`); `nil` for the
    ///     beginning. Widened to whole 15-minute intervals.
    ///   - to: The end (exclusive), the same way; `nil` for no end.
    ///   - progress: Called before each month and each later phase (a year of a large center
    ///     takes minutes).
    /// - Returns: The rows the range has now.
    /// - Important: Raw rows dropped by retention are gone: the range starts two days after the
    ///   retention horizon at the earliest, and the rollups before keep their figures.
    /// - Throws: PostgreSQL errors (a malformed time among them); nothing is changed then.
    @discardableResult
    public func rebuild(
        from: String?, to: String?, progress: (@Sendable (RebuildProgress) -> Void)? = nil
    ) async throws -> Counts {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            // Not before the retention horizon: the raw rows there are gone, and the two days
            // after it hold contacts queued, and agents' segments begun, before it. The range is
            // cut at each month's start in the business time zone; its ends stay open when
            // `from` or `to` is, so a whole rebuild still clears rollup rows without raw rows.
            let chunkRows = try await connection.query(
                """
                WITH bounds AS (
                    SELECT CASE WHEN raw_horizon() = '-infinity' THEN rollup_instant(\(from))
                                ELSE greatest(rollup_instant(\(from)), raw_horizon() + interval '2 days') END AS lo,
                           rollup_instant(\(to)) AS hi,
                           analytics_time_zone() AS tz
                ), span AS (
                    SELECT lo, hi, tz,
                           coalesce(lo, least((SELECT min(event_ts) FROM agent_event),
                                               (SELECT min(initiation_ts) FROM contact_record))) AS first,
                           coalesce(hi, greatest((SELECT max(event_ts) FROM agent_event),
                                                 (SELECT max(initiation_ts) FROM contact_record))) AS last
                    FROM bounds
                ), cuts AS (
                    SELECT array_agg(m.cut ORDER BY m.cut) AS cuts
                    FROM span s
                    CROSS JOIN LATERAL generate_series(
                        date_trunc('month', s.first AT TIME ZONE s.tz) + interval '1 month',
                        s.last AT TIME ZONE s.tz, interval '1 month') AS g(local)
                    CROSS JOIN LATERAL (SELECT g.local AT TIME ZONE s.tz AS cut) AS m
                    WHERE m.cut > s.first AND (s.hi IS NULL OR m.cut < s.hi)
                )
                SELECT (ARRAY[s.lo] || c.cuts)[i], (c.cuts || ARRAY[s.hi])[i],
                       to_char(coalesce((ARRAY[s.lo] || c.cuts)[i], s.first) AT TIME ZONE s.tz, 'YYYY-MM')
                FROM span s, cuts c, generate_series(1, coalesce(array_length(c.cuts, 1), 0) + 1) AS i
                ORDER BY i
                """, logger: logger)
            var chunks: [(lo: Date?, hi: Date?, month: String?)] = []
            for try await (lo, hi, month) in chunkRows.decode((Date?, Date?, String?).self) {
                chunks.append((lo, hi, month))
            }
            var rows = 0
            for (index, chunk) in chunks.enumerated() {
                progress?(
                    RebuildProgress(
                        phase: "rollups", month: chunk.month, monthsDone: index, months: chunks.count, rows: rows))
                let rebuilt = try await connection.query(
                    "SELECT 1 FROM rollup_rebuild(\(chunk.lo)::timestamptz, \(chunk.hi)::timestamptz)", logger: logger)
                for try await _ in rebuilt {}
                let written = try await connection.query(
                    """
                    SELECT (SELECT count(*) FROM queue_interval_rollup
                            WHERE interval_start >= coalesce(\(chunk.lo)::timestamptz, '-infinity')
                              AND interval_start < coalesce(\(chunk.hi)::timestamptz, 'infinity'))
                         + (SELECT count(*) FROM agent_interval_rollup
                            WHERE interval_start >= coalesce(\(chunk.lo)::timestamptz, '-infinity')
                              AND interval_start < coalesce(\(chunk.hi)::timestamptz, 'infinity'))
                    """, logger: logger)
                for try await count in written.decode(Int.self) { rows += count }
            }
            // A whole rebuild (both ends open) records the definitions it used, as
            // rollup_rebuild(NULL, NULL) does itself when it runs as one piece.
            if chunks.count > 1, chunks.first?.lo == nil, chunks.last?.hi == nil {
                try await connection.query("SELECT rollup_record_definitions()", logger: logger)
            }
            progress?(
                RebuildProgress(
                    phase: "latest events", month: nil, monthsDone: chunks.count, months: chunks.count, rows: rows))
            try await connection.query("SELECT agent_latest_rebuild()", logger: logger)
            progress?(
                RebuildProgress(
                    phase: "counting", month: nil, monthsDone: chunks.count, months: chunks.count, rows: rows))
            let counts = try await connection.query(
                """
                WITH bounds AS (
                    SELECT greatest(coalesce(rollup_instant(\(from)), '-infinity'), raw_horizon() + interval '2 days') AS lo,
                           coalesce(rollup_instant(\(to)), 'infinity') AS hi
                )
                SELECT (SELECT count(*) FROM queue_interval_rollup, bounds
                        WHERE interval_start >= lo AND interval_start < hi),
                       (SELECT count(*) FROM store_day_rollup, bounds
                        WHERE business_date >= (lo AT TIME ZONE analytics_time_zone())::date
                          AND business_date < (hi AT TIME ZONE analytics_time_zone())::date),
                       (SELECT count(*) FROM agent_interval_rollup, bounds
                        WHERE interval_start >= lo AND interval_start < hi)
                """,
                logger: logger
            )
            for try await (queue, store, agent) in counts.decode((Int, Int, Int).self) {
                return Counts(queueIntervals: queue, storeDays: store, agentIntervals: agent)
            }
            return Counts(queueIntervals: 0, storeDays: 0, agentIntervals: 0)
        }
    }

    /// How a rollup-backed view differs from its definition computed from the raw tables.
    public struct Difference: Sendable, Hashable {
        /// The analyst view.
        public var view: String
        /// Rows the view shows that the definition does not (counted with duplicates).
        public var onlyInView: Int
        /// Rows the definition gives that the view does not.
        public var onlyInDefinition: Int
    }

    /// The analyst views that read rollups, each compared with its definition computed from the
    /// raw tables (`contact_outcome` and `agent_activity_segment`, see ``definitions``), in one
    /// transaction, so both see the same rows and the same now().
    ///
    /// - Returns: The views that differ; empty when the rollups are exact. Periods whose raw
    ///   rows retention dropped (to two days after the horizon) are not compared.
    /// - Important: This reads the whole history of the raw tables: minutes on a large database.
    public func differences() async throws -> [Difference] {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            for statement in Self.definitions {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            var differences: [Difference] = []
            for view in Self.checkedViews {
                // Only where the raw rows are kept (the horizon as in rebuild(from:to:)).
                let kept =
                    view == "store_day_metrics"
                    ? "business_date >= ((raw_horizon() + interval '2 days') AT TIME ZONE analytics_time_zone())::date"
                    : "interval_start >= raw_horizon() + interval '2 days'"
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT (SELECT count(*) FROM (SELECT * FROM \(view) WHERE \(kept)
                                                          EXCEPT ALL SELECT * FROM pg_temp.raw_\(view) WHERE \(kept)) a),
                                   (SELECT count(*) FROM (SELECT * FROM pg_temp.raw_\(view) WHERE \(kept)
                                                          EXCEPT ALL SELECT * FROM \(view) WHERE \(kept)) b)
                            """),
                    logger: logger)
                for try await (onlyInView, onlyInDefinition) in rows.decode((Int, Int).self)
                where onlyInView != 0 || onlyInDefinition != 0 {
                    differences.append(
                        Difference(view: view, onlyInView: onlyInView, onlyInDefinition: onlyInDefinition))
                }
            }
            for view in Self.checkedViews.reversed() {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP VIEW pg_temp.raw_\(view)"), logger: logger)
            }
            return differences
        }
    }

    /// The views the rollups serve, in dependency order.
    static let checkedViews = [
        "queue_interval_metrics", "store_day_metrics", "agent_status_interval", "agent_interval_metrics",
    ]

    /// The definitions of ``checkedViews`` computed from the raw tables, as temporary `raw_` views:
    /// each view's `<view>_from_raw()`, a function of the schema's files
    /// (`Sources/Storage/Schema/functions/`), the one source the migrator applies too.
    static let definitions: [String] = checkedViews.map { view in
        "CREATE TEMP VIEW raw_\(view) AS SELECT * FROM \(view)_from_raw()"
    }
}
