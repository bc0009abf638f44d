import Logging
import PostgresNIO

/// A holiday as the analysts' `calendar_day` table stores it.
public struct CalendarDay: Sendable, Hashable {
    /// The date, `YYYY-MM-DD`.
    public var day: String
    /// The Japanese name.
    public var nameJa: String
    /// The English name.
    public var nameEn: String
    /// `national`, `substitute`, `citizens` or `one_off`.
    public var kind: String

    /// Creates a day.
    public init(day: String, nameJa: String, nameEn: String, kind: String) {
        self.day = day
        self.nameJa = nameJa
        self.nameEn = nameEn
        self.kind = kind
    }
}

/// Writes the holiday calendar the analyst views use for day types (`day_type(date)`).
///
/// The calendar is computed in Swift (OperatingHours, by law, with the `flows/` adjustments) and
/// written here for its whole range, so SQL and the IVR hook agree on what a holiday is.
public struct CalendarStore: Sendable {
    private let client: PostgresClient
    private let logger: Logger

    /// Creates the store.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Replaces the holidays of the years covered by `days` with `days` (idempotent), unless those
    /// years already hold exactly these days (as at nearly every start).
    ///
    /// - Returns: Whether the days were rewritten.
    @discardableResult
    public func replace(years: ClosedRange<Int>, with days: [CalendarDay]) async throws -> Bool {
        var dates = ArrayColumn<String>()
        var japanese = ArrayColumn<String>()
        var english = ArrayColumn<String>()
        var kinds = ArrayColumn<String>()
        for day in days {
            dates.append(day.day)
            japanese.append(day.nameJa)
            english.append(day.nameEn)
            kinds.append(day.kind)
        }
        let first = "\(years.lowerBound)-01-01"
        let last = "\(years.upperBound)-12-31"
        let unchanged = try await client.query(
            """
            SELECT (SELECT count(*) FROM calendar_day WHERE day BETWEEN \(first)::date AND \(last)::date)
                       = cardinality(\(dates))
               AND NOT EXISTS (
                   SELECT d::date, j, e, k FROM unnest(\(dates), \(japanese), \(english), \(kinds)) AS v(d, j, e, k)
                   EXCEPT SELECT day, name_ja, name_en, kind FROM calendar_day)
            """, logger: logger)
        for try await same in unchanged.decode(Bool.self) where same { return false }
        try await client.withTransaction(logger: logger) { connection in
            // Every role migrates at start: concurrent rewrites queue up instead of colliding.
            try await connection.query("LOCK TABLE calendar_day IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            try await connection.query(
                "DELETE FROM calendar_day WHERE day BETWEEN \(first)::date AND \(last)::date",
                logger: logger
            )
            try await connection.query(
                """
                INSERT INTO calendar_day (day, name_ja, name_en, kind)
                SELECT d::date, j, e, k FROM unnest(\(dates), \(japanese), \(english), \(kinds)) AS v(d, j, e, k)
                """,
                logger: logger
            )
            // Day types follow the holidays: rebuild the contact rollups if they changed.
            try await connection.query("SELECT rollup_sync_definitions()", logger: logger)
        }
        return true
    }
}
