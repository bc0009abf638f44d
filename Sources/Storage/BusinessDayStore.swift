import ContactCenter
import Logging
import PostgresNIO

/// A store of `flows/` as the analysts' `store` table holds it.
public struct StoreRow: Sendable, Hashable {
    /// The store's id (`Attributes["storeId"]` of its contacts).
    public var storeId: String
    /// The display name.
    public var name: String
    /// The IANA time zone of its business days.
    public var timeZone: String
    /// The holiday calendar's id.
    public var calendarId: String
    /// The hours profile's id.
    public var hoursProfile: String
    /// The store's free attributes.
    public var attributes: [String: String]

    /// Creates a row.
    public init(
        storeId: String, name: String, timeZone: String, calendarId: String, hoursProfile: String,
        attributes: [String: String]
    ) {
        self.storeId = storeId
        self.name = name
        self.timeZone = timeZone
        self.calendarId = calendarId
        self.hoursProfile = hoursProfile
        self.attributes = attributes
    }
}

/// One business day of one store, as the IVR hook's evaluator decides it.
public struct BusinessDayRow: Sendable, Hashable {
    /// The store's id.
    public var storeId: String
    /// The business date, `YYYY-MM-DD`.
    public var businessDate: String
    /// `weekday`, `weekend`, `holiday`, `pre_holiday`, `closure` or `override`.
    public var dayType: String
    /// The closure, override or holiday that set the hours; `nil` for weekly hours.
    public var hoursReason: String?
    /// The holiday on that date, whatever decided the hours.
    public var holidayName: String?
    /// When the first span opens; `nil` when closed all day.
    public var opensAt: UTCTimestamp?
    /// When the last span closes (after midnight for overnight hours); `nil` when closed all day.
    public var closesAt: UTCTimestamp?

    /// Creates a row.
    public init(
        storeId: String, businessDate: String, dayType: String, hoursReason: String?, holidayName: String?,
        opensAt: UTCTimestamp?, closesAt: UTCTimestamp?
    ) {
        self.storeId = storeId
        self.businessDate = businessDate
        self.dayType = dayType
        self.hoursReason = hoursReason
        self.holidayName = holidayName
        self.opensAt = opensAt
        self.closesAt = closesAt
    }
}

/// Writes the stores and their business days (`store`, `store_business_day`) that
/// `store_business_day_at` files contacts by, so SQL and the IVR hook agree on business days.
public struct BusinessDayStore: Sendable {
    private let client: PostgresClient
    private let logger: Logger

    /// Creates the store.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The first and last UTC years of `contact_record.initiation_ts`, or `nil` without contacts.
    public func contactYears() async throws -> ClosedRange<Int>? {
        let rows = try await client.query(
            """
            SELECT extract(year FROM min(initiation_ts) AT TIME ZONE 'UTC')::integer,
                   extract(year FROM max(initiation_ts) AT TIME ZONE 'UTC')::integer
            FROM contact_record
            """,
            logger: logger
        )
        for try await (first, last) in rows.decode((Int?, Int?).self) {
            guard let first, let last else { return nil }
            return first...last
        }
        return nil
    }

    /// Replaces every store and business day with `stores` and `days`, in one transaction, unless
    /// the tables already hold exactly these rows (every role and one-shot command writes them at
    /// start, nearly always unchanged: the rewrite, its `ANALYZE` and the rollups' definition
    /// check cost a few hundred milliseconds that a comparison saves).
    ///
    /// Several processes may do this at once (every role migrates at start): the tables are
    /// locked against each other's rewrite, while readers keep reading the previous rows.
    ///
    /// - Returns: Whether the tables were rewritten (`false`: they held these rows already).
    @discardableResult
    public func replace(stores: [StoreRow], days: [BusinessDayRow]) async throws -> Bool {
        var ids = ArrayColumn<String>()
        var names = ArrayColumn<String>()
        var zones = ArrayColumn<String>()
        var calendars = ArrayColumn<String>()
        var profiles = ArrayColumn<String>()
        var attributes = ArrayColumn<JSONBValue>()
        for store in stores {
            ids.append(store.storeId)
            names.append(store.name)
            zones.append(store.timeZone)
            calendars.append(store.calendarId)
            profiles.append(store.hoursProfile)
            attributes.append(JSONBValue(bytes: ContactRecordColumns.json(store.attributes)))
        }
        var dayStores = ArrayColumn<String>(capacity: days.count)
        var dates = ArrayColumn<String>(capacity: days.count)
        var types = ArrayColumn<String>(capacity: days.count)
        var reasons = ArrayColumn<String>(capacity: days.count)
        var holidays = ArrayColumn<String>(capacity: days.count)
        var opens = ArrayColumn<UTCTimestamp>(capacity: days.count)
        var closes = ArrayColumn<UTCTimestamp>(capacity: days.count)
        for day in days {
            dayStores.append(day.storeId)
            dates.append(day.businessDate)
            types.append(day.dayType)
            reasons.append(day.hoursReason)
            holidays.append(day.holidayName)
            opens.append(day.opensAt)
            closes.append(day.closesAt)
        }
        let logger = self.logger
        // Equal as sets: the new rows are unique by (store, date) as the primary key makes the
        // stored ones, so equal counts and no new row missing mean the same rows.
        let unchanged = try await client.query(
            """
            SELECT (SELECT count(*) FROM store) = cardinality(\(ids))
               AND (SELECT count(*) FROM store_business_day) = cardinality(\(dates))
               AND NOT EXISTS (
                   SELECT * FROM unnest(\(ids), \(names), \(zones), \(calendars), \(profiles), \(attributes))
                   EXCEPT SELECT store_id, name, time_zone, calendar_id, hours_profile, attributes FROM store)
               AND NOT EXISTS (
                   SELECT s, d::date, t, r, h, o, c
                   FROM unnest(\(dayStores), \(dates), \(types), \(reasons), \(holidays), \(opens), \(closes))
                       AS v(s, d, t, r, h, o, c)
                   EXCEPT SELECT store_id, business_date, day_type, hours_reason, holiday_name, opens_at, closes_at
                   FROM store_business_day)
            """, logger: logger)
        for try await same in unchanged.decode(Bool.self) where same { return false }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "LOCK TABLE store, store_business_day IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            try await connection.query("DELETE FROM store", logger: logger)
            try await connection.query("DELETE FROM store_business_day", logger: logger)
            try await connection.query(
                """
                INSERT INTO store (store_id, name, time_zone, calendar_id, hours_profile, attributes)
                SELECT * FROM unnest(\(ids), \(names), \(zones), \(calendars), \(profiles), \(attributes))
                """,
                logger: logger
            )
            try await connection.query(
                """
                INSERT INTO store_business_day (store_id, business_date, day_type, hours_reason, holiday_name,
                    opens_at, closes_at)
                SELECT s, d::date, t, r, h, o, c
                FROM unnest(\(dayStores), \(dates), \(types), \(reasons), \(holidays), \(opens), \(closes))
                    AS v(s, d, t, r, h, o, c)
                """,
                logger: logger
            )
            // Fresh statistics: the views look business days up per contact, and a planner that
            // still believes the table empty scans it for each one.
            try await connection.query("ANALYZE store, store_business_day", logger: logger)
            // Store days are filed by these tables: rebuild the contact rollups if they changed.
            try await connection.query("SELECT rollup_sync_definitions()", logger: logger)
        }
        return true
    }
}
