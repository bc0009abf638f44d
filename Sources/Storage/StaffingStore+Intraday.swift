import ContactCenter
import Foundation
import PostgresNIO
import Primitives

/// The intraday reforecast's reads: a business day's contacts so far, the plan stored for it, and
/// where a business day begins.
extension StaffingStore {
    /// Contacts per queue, slot and store of business day `date`, as `staffing_history` files them
    /// (offered = answered + abandoned + callbacks, by the time they entered the queue), counting
    /// only those that entered it before `instant` (seconds since 1970; nil: all so far).
    ///
    /// Read from the contact records by their timestamps (`staffing_intraday_actuals`): a past day
    /// replays as it stood at any instant, whenever its rows were written. The function keeps its
    /// plan per session, where a query planned for each request took as long to plan as to run.
    public func intradayActuals(
        on date: CivilDate, before instant: Double?, queue: String?
    ) async throws -> [String: [DaySlot: IntradayReforecast.ActualSlot]] {
        let before = instant.map { Date(timeIntervalSince1970: $0) }
        let rows = try await client.query(
            """
            SELECT queue, store_id, slot, offered, answered, abandoned, handle_s, handle_n
            FROM staffing_intraday_actuals(\(SQLDate(date)), \(before), \(queue))
            """, logger: logger)
        var result: [String: [DaySlot: IntradayReforecast.ActualSlot]] = [:]
        for try await (id, store, slot, offered, answered, abandoned, handleSeconds, handled) in rows.decode(
            (String, String, Int, Int, Int, Int, Int, Int).self)
        {
            Self.add(
                &result, queue: id, store: store, slot: DaySlot(slot), offered: Double(offered),
                answered: Double(answered), abandoned: Double(abandoned), handleSeconds: Double(handleSeconds),
                handled: Double(handled))
        }
        return result
    }

    /// The history's contacts per date, queue, slot and store over `dates` (`staffing_history`:
    /// whole days, for backtests).
    public func historyActuals(
        _ dates: ClosedRange<CivilDate>, queue: String?
    ) async throws -> [CivilDate: [String: [DaySlot: IntradayReforecast.ActualSlot]]] {
        let rows = try await client.query(
            """
            SELECT business_date, queue, store_id, slot::int, offered::float8, answered::float8, abandoned::float8,
                   handle_s::float8, handle_n::float8
            FROM staffing_history
            WHERE business_date BETWEEN \(SQLDate(dates.lowerBound)) AND \(SQLDate(dates.upperBound))
              AND (\(queue)::text IS NULL OR queue = \(queue))
            """, logger: logger)
        var result: [CivilDate: [String: [DaySlot: IntradayReforecast.ActualSlot]]] = [:]
        for try await (date, id, store, slot, offered, answered, abandoned, handleSeconds, handled) in rows.decode(
            (SQLDate, String, String, Int, Double, Double, Double, Double, Double).self)
        {
            Self.add(
                &result[date.date, default: [:]], queue: id, store: store, slot: DaySlot(slot), offered: offered,
                answered: answered, abandoned: abandoned, handleSeconds: handleSeconds, handled: handled)
        }
        return result
    }

    private static func add(
        _ result: inout [String: [DaySlot: IntradayReforecast.ActualSlot]], queue: String, store: String,
        slot: DaySlot, offered: Double, answered: Double, abandoned: Double, handleSeconds: Double, handled: Double
    ) {
        var entry = result[queue, default: [:]][slot] ?? IntradayReforecast.ActualSlot(offeredByStore: [:])
        entry.offeredByStore[store, default: 0] += offered
        entry.answered += answered
        entry.abandoned += abandoned
        entry.handleSeconds += handleSeconds
        entry.handled += handled
        result[queue, default: [:]][slot] = entry
    }

    /// The latest plan stored for `date` that covers `queue` (every queue's plan covers it; nil:
    /// a plan of every queue): its id and, per queue, its slots of that date.
    public func storedPlan(
        on date: CivilDate, queue: String?
    ) async throws -> (planId: Int, queues: [String: [DaySlot: IntradayReforecast.PlanSlot]])? {
        let day = SQLDate(date)
        let rows = try await client.query(
            """
            WITH chosen AS (
                SELECT plan_id FROM staffing_plan
                WHERE \(day) BETWEEN from_date AND to_date
                  AND (queue_filter IS NULL OR queue_filter = \(queue))
                ORDER BY plan_id DESC LIMIT 1
            )
            SELECT c.plan_id, i.queue,
                   floor(extract(epoch FROM i.interval_start - (\(day)::timestamp AT TIME ZONE analytics_time_zone()))
                         / 900)::int,
                   i.forecast_offered::float8, i.forecast_aht_s::float8, i.agents
            FROM chosen c
            LEFT JOIN staffing_plan_interval i
                ON i.plan_id = c.plan_id
               AND i.interval_start >= (\(day)::timestamp AT TIME ZONE analytics_time_zone())
               AND i.interval_start < ((\(day)::date + 1)::timestamp AT TIME ZONE analytics_time_zone())
               AND (\(queue)::text IS NULL OR i.queue = \(queue))
            """, logger: logger)
        var planId: Int?
        var queues: [String: [DaySlot: IntradayReforecast.PlanSlot]] = [:]
        for try await (id, queue, slot, offered, aht, agents) in rows.decode(
            (Int, String?, Int?, Double?, Double?, Int?).self)
        {
            planId = id
            guard let queue, let slot, let offered else { continue }
            queues[queue, default: [:]][DaySlot(slot)] = IntradayReforecast.PlanSlot(
                offered: offered, averageHandleTimeSeconds: aht, agents: agents)
        }
        return planId.map { ($0, queues) }
    }

    /// The business date in progress at `instant` (seconds since 1970) and its midnight: the
    /// analytics time zone's date, or the day before while a store's business day of the day
    /// before is still open (an izakaya's 01:00 belongs to the evening before). `d` is
    /// materialized so that its EXISTS runs once, not once per column that names `day`.
    public func businessDay(at instant: Double) async throws -> (date: CivilDate, midnight: Double) {
        let rows = try await client.query(
            """
            WITH t AS (SELECT (to_timestamp(\(instant)::float8) AT TIME ZONE analytics_time_zone())::date AS today),
            d AS MATERIALIZED (
                SELECT CASE WHEN EXISTS (
                    SELECT FROM store_business_day b, t
                    WHERE b.business_date = t.today - 1 AND b.closes_at > to_timestamp(\(instant)::float8)
                ) THEN today - 1 ELSE today END AS day
                FROM t
            )
            SELECT day, extract(epoch FROM day::timestamp AT TIME ZONE analytics_time_zone())::float8 FROM d
            """, logger: logger)
        for try await (date, midnight) in rows.decode((SQLDate, Double).self) { return (date.date, midnight) }
        throw StorageError(code: .notFound, message: "no business day at \(instant)")
    }

    /// The midnight of business date `date` in the analytics time zone, seconds since 1970.
    public func midnight(of date: CivilDate) async throws -> Double {
        let rows = try await client.query(
            "SELECT extract(epoch FROM \(SQLDate(date))::timestamp AT TIME ZONE analytics_time_zone())::float8",
            logger: logger)
        for try await midnight in rows.decode(Double.self) { return midnight }
        throw StorageError(code: .notFound, message: "no midnight for \(date)")
    }
}
