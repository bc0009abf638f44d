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
    /// Read from the contact records (`contact_outcome`), by their timestamps: a past day replays
    /// as it stood at any instant, whenever its rows were written. The records read span the
    /// day before `midnight` (the date's, seconds since 1970) to two days after it, as constants:
    /// PostgreSQL prunes the other months' partitions when it plans. JIT compilation is off for
    /// the query (`SET LOCAL`): its estimated cost passes JIT's threshold, and compiling took
    /// 0.2–3 s where running it takes 60 ms. The business days read are the date's and the day
    /// before's (a record on the date's local date or the next), by the index on the date.
    public func intradayActuals(
        on date: CivilDate, midnight: Double, before instant: Double?, queue: String?
    ) async throws -> [String: [DaySlot: IntradayReforecast.ActualSlot]] {
        let day = SQLDate(date)
        let from = Date(timeIntervalSince1970: midnight - 86_400)
        let to = Date(timeIntervalSince1970: instant.map { min($0, midnight + 2 * 86_400) } ?? midnight + 2 * 86_400)
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET LOCAL jit = off", logger: logger)
            let rows = try await connection.query(
                """
                SELECT o.queue, coalesce(o.store_id, '(unknown)'),
                       floor(extract(epoch FROM o.enqueue_ts - (b.business_date::timestamp AT TIME ZONE z.tz)) / 900)::int,
                       count(*) FILTER (WHERE o.answered OR o.abandoned OR o.callback_requested)::float8,
                       count(*) FILTER (WHERE o.answered)::float8, count(*) FILTER (WHERE o.abandoned)::float8,
                       coalesce(sum(o.handle_s) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL), 0)::float8,
                       count(*) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL)::float8
                FROM contact_outcome o
                CROSS JOIN (SELECT analytics_time_zone() AS zone OFFSET 0) AS g
                LEFT JOIN store s ON s.store_id = o.store_id
                CROSS JOIN LATERAL (SELECT coalesce(s.time_zone, g.zone) AS tz) AS z
                CROSS JOIN LATERAL (SELECT (o.enqueue_ts AT TIME ZONE z.tz)::date AS local_date) AS l
                LEFT JOIN store_business_day p
                    ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.enqueue_ts < p.closes_at
                   AND p.business_date BETWEEN \(day)::date - 1 AND \(day)::date
                CROSS JOIN LATERAL (
                    SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
                ) AS b
                WHERE o.queued
                  AND o.enqueue_ts >= \(from) AND o.enqueue_ts < \(to)
                  AND b.business_date = \(day)
                  AND (\(queue)::text IS NULL OR o.queue = \(queue))
                GROUP BY 1, 2, 3
                """, logger: logger)
            var result: [String: [DaySlot: IntradayReforecast.ActualSlot]] = [:]
            for try await (id, store, slot, offered, answered, abandoned, handleSeconds, handled) in rows.decode(
                (String, String, Int, Double, Double, Double, Double, Double).self)
            {
                Self.add(
                    &result, queue: id, store: store, slot: DaySlot(slot), offered: offered, answered: answered,
                    abandoned: abandoned, handleSeconds: handleSeconds, handled: handled)
            }
            return result
        }
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
