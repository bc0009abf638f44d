import ContactCenter
import Foundation
import Logging
import PostgresNIO
import Primitives

/// The staffing forecast's reads and the plans' writes: `staffing_history` kept current, the
/// weighted baselines per queue, store and day type, the day types of the dates to plan, and
/// `staffing_plan` with its intervals.
public struct StaffingStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// The weighting of the history (docs/staffing.md, "The forecast").
    public enum Method {
        /// An ordinary day (weekday, weekend) uses the last this many days of its own weekday and
        /// day type, each of weight 1: about a quarter of history, long enough that the mean's own
        /// noise adds little to a slot's Poisson noise (a mean of n days adds a factor
        /// √(1 + 1/n) to the error), short enough to follow a change of level within weeks.
        public static let ordinaryDays = 12
        /// Holidays and pre-holidays use every one of the last this many days (three years).
        public static let specialLookbackDays = 1096
        /// Weight of a holiday or pre-holiday n whole years back: decay^n.
        public static let specialYearDecay = 0.7
        /// Patience and the queue-wide AHT come from this many days before the plan.
        public static let queueLookbackDays = 56

        /// The method as stored with each plan.
        public static var description: String {
            "same day type per store; weekday/weekend: the last \(ordinaryDays) days of the same weekday, equal weights; "
                + "holiday/pre_holiday: the days with the same opening hours, else all; no opening: 0; "
                + "holiday/pre_holiday: last \(specialLookbackDays) days, weight \(specialYearDecay)^(years back); "
                + "closures and overrides never baselines; offered = answered + abandoned + callbacks; "
                + "AHT = talk + hold + ACW; patience = sum queue_s / abandoned over the last \(queueLookbackDays) days"
        }
    }

    /// A day's opening hours as `StaffingCalendar` keeps them, over `staffing_day_types` AS d and
    /// ``hoursJoin``: `HH:MM-HH:MM` (the first opening and the last closing, local), `closed`
    /// when `flows/` opens the store at no time that day, NULL where `store_business_day` has no
    /// row for it.
    static let hoursText = """
        CASE WHEN b.store_id IS NULL THEN NULL WHEN b.opens_at IS NULL THEN 'closed'
             ELSE to_char(b.opens_at AT TIME ZONE z.tz, 'HH24:MI') || '-' || to_char(b.closes_at AT TIME ZONE z.tz, 'HH24:MI')
        END
        """
    static let hoursJoin = """
        LEFT JOIN store_business_day b ON b.store_id = d.store_id AND b.business_date = d.business_date
        LEFT JOIN store s ON s.store_id = d.store_id
        CROSS JOIN LATERAL (SELECT coalesce(s.time_zone, analytics_time_zone()) AS tz) AS z
        """

    /// Creates the store.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// ``refreshHistory(through:unlessRefreshedWithin:)`` through the database's yesterday.
    @discardableResult
    public func refreshHistory(unlessRefreshedWithin period: Duration = .zero) async throws -> Int {
        try await refreshHistory(through: nil, unlessRefreshedWithin: period)
    }

    /// Recomputes `staffing_history` from two days before its last business day (late records
    /// change recent days) through yesterday, or from the first contact when it is empty; unless
    /// a refresh through yesterday ran less than `period` ago (`staffing_refresh`).
    /// - Parameter through: The last date refreshed; default the database's yesterday in the
    ///   analytics time zone (a test names the date it means).
    /// - Returns: rows written (0 when skipped).
    @discardableResult
    public func refreshHistory(
        through: CivilDate?, unlessRefreshedWithin period: Duration = .zero
    ) async throws -> Int {
        let through = through.map(SQLDate.init)
        let rows = try await client.query(
            """
            WITH bounds AS (
                SELECT coalesce((SELECT max(last_date) - 2 FROM staffing_source),
                                (SELECT (min(interval_start) AT TIME ZONE analytics_time_zone())::date - 1
                                 FROM queue_interval_rollup)) AS lo,
                       coalesce(\(through)::date, (now() AT TIME ZONE analytics_time_zone())::date - 1) AS hi
            )
            SELECT coalesce((
                SELECT staffing_history_refresh(lo, hi) FROM bounds
                WHERE lo <= hi
                  AND NOT EXISTS (
                      SELECT FROM staffing_refresh
                      WHERE through_date >= hi AND refreshed_at > now() - make_interval(secs => \(period.inSeconds)))
            ), 0)
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// The queues with history, by id, with their names.
    public func knownQueues() async throws -> [String: String?] {
        var queues: [String: String?] = [:]
        let rows = try await client.query(
            """
            SELECT s.queue, (SELECT h.queue_name FROM staffing_history h WHERE h.queue = s.queue
                             ORDER BY h.business_date DESC LIMIT 1)
            FROM (SELECT DISTINCT queue FROM staffing_source) AS s
            """, logger: logger)
        for try await (queue, name) in rows.decode((String, String?).self) { queues[queue] = name }
        return queues
    }

    /// The history of each queue active in the weeks before `start` (or of `queue` only).
    public func queues(before start: CivilDate, queue: String?) async throws -> [String: StaffingQueueHistory] {
        let start = SQLDate(start)
        var result: [String: StaffingQueueHistory] = [:]
        let lookback = Method.queueLookbackDays
        let rows = try await client.query(
            """
            WITH src AS (
                SELECT queue, store_id FROM staffing_source
                WHERE last_date >= \(start)::date - \(lookback)::int AND first_date < \(start)::date
                  AND (\(queue)::text IS NULL OR queue = \(queue))
            )
            SELECT s.queue, array_agg(s.store_id ORDER BY s.store_id),
                   (SELECT h.queue_name FROM staffing_history h WHERE h.queue = s.queue
                    ORDER BY h.business_date DESC LIMIT 1),
                   coalesce(sum(t.handle_s), 0)::float8, coalesce(sum(t.handle_n), 0)::float8,
                   coalesce(sum(t.abandoned), 0)::bigint, coalesce(sum(t.queue_s), 0)::float8
            FROM src s
            LEFT JOIN LATERAL (
                SELECT sum(d.handle_s) AS handle_s, sum(d.handle_n) AS handle_n, sum(d.abandoned) AS abandoned,
                       sum(d.queue_s) AS queue_s
                FROM staffing_history_day d
                WHERE d.queue = s.queue AND d.store_id = s.store_id
                  AND d.business_date >= \(start)::date - \(lookback)::int AND d.business_date < \(start)::date
            ) AS t ON true
            GROUP BY s.queue
            """, logger: logger)
        for try await (id, stores, name, handleSeconds, handled, abandoned, queueSeconds) in rows.decode(
            (String, [String], String?, Double, Double, Int, Double).self)
        {
            result[id] = StaffingQueueHistory(
                name: name, stores: stores, averageHandleTimeSeconds: handled > 0 ? handleSeconds / handled : nil,
                abandoned: abandoned, queueSeconds: queueSeconds)
        }
        return result
    }

    /// The weighted baselines of every queue, store and day type, for a plan starting on `start`.
    ///
    /// PostgreSQL picks the baseline days and their weights; the per-slot sums over those days'
    /// `staffing_history_day` rows are taken here (a few thousand rows of arrays instead of
    /// hundreds of thousands of slot rows). The ordinary days are ranked per store and day type,
    /// once for all the store's queues: a queue's first day only cuts off a store's oldest days,
    /// so a day's rank among the days the queue has is its rank among all the store's days.
    public func baselines(
        before start: CivilDate, queue: String?
    ) async throws -> [StaffingBaselineKey: StaffingBaseline] {
        let start = SQLDate(start)
        var result: [StaffingBaselineKey: StaffingBaseline] = [:]
        let rows = try await client.query(
            """
            WITH src AS (
                SELECT queue, store_id, first_date FROM staffing_source
                WHERE last_date >= \(start)::date - \(Method.queueLookbackDays)::int AND first_date < \(start)::date
                  AND (\(queue)::text IS NULL OR queue = \(queue))
            ), typed AS (
                -- Ordinary days rank within their weekday (0 = Sunday); holidays and pre-holidays
                -- pool over weekdays, grouped by their opening hours.
                SELECT d.store_id, d.day_type, d.business_date,
                       CASE WHEN d.day_type IN ('weekday', 'weekend') THEN extract(dow FROM d.business_date)::int
                       END AS weekday,
                       CASE WHEN d.day_type IN ('holiday', 'pre_holiday') THEN \(unescaped: Self.hoursText) END AS hours
                FROM staffing_day_types(\(start)::date - \(Method.specialLookbackDays)::int, \(start)::date - 1) AS d
                \(unescaped: Self.hoursJoin)
                WHERE d.day_type IN ('weekday', 'weekend', 'holiday', 'pre_holiday')
                  AND d.store_id IN (SELECT store_id FROM src)
            ), ranked AS (
                SELECT t.*, row_number() OVER (
                           PARTITION BY t.store_id, t.day_type, t.weekday ORDER BY t.business_date DESC) AS rank
                FROM typed t
            ), baseline AS (
                SELECT s.queue, s.store_id, r.day_type, r.weekday, r.hours, r.business_date,
                       CASE WHEN r.weekday IS NOT NULL THEN 1
                            ELSE power(\(Method.specialYearDecay), floor((\(start)::date - r.business_date) / 365.25))
                       END::float8 AS weight
                FROM ranked r
                JOIN src s ON s.store_id = r.store_id AND r.business_date >= s.first_date
                WHERE r.weekday IS NULL OR r.rank <= \(Method.ordinaryDays)
            )
            SELECT b.queue, b.store_id, b.day_type, b.weekday, b.hours, b.weight, coalesce(h.slots, '{}'),
                   coalesce(h.offered_by_slot, '{}'), coalesce(h.handle_s_by_slot, '{}'),
                   coalesce(h.handle_n_by_slot, '{}')
            FROM baseline b
            LEFT JOIN staffing_history_day h
                ON h.queue = b.queue AND h.store_id = b.store_id AND h.business_date = b.business_date
            """, logger: logger)
        for try await (queue, store, type, weekday, hours, weight, slots, offered, handleSeconds, handled)
            in rows.decode(
                (String, String, String, Int?, String?, Double, NumberArray, NumberArray, NumberArray, NumberArray).self
            )
        {
            guard let dayType = DayType(rawValue: type) else { continue }
            let key = StaffingBaselineKey(
                queue: queue, store: store, dayType: dayType, weekday: weekday.flatMap(Weekday.init(rawValue:)),
                hours: hours)
            var baseline = result.removeValue(forKey: key) ?? StaffingBaseline(weight: 0, days: 0)
            baseline.add(
                day: weight, slots: slots.values.map { Int($0) }, offered: offered.values,
                handleSeconds: handleSeconds.values, handled: handled.values)
            result[key] = baseline
        }
        return result
    }

    /// The dates of `dates` and each store's day type on them.
    public func calendar(_ dates: ClosedRange<CivilDate>) async throws -> StaffingCalendar {
        var calendar = StaffingCalendar(dates)
        let rows = try await client.query(
            """
            SELECT d.store_id, d.business_date, d.day_type, \(unescaped: Self.hoursText)
            FROM staffing_day_types(\(SQLDate(dates.lowerBound)), \(SQLDate(dates.upperBound))) AS d
            \(unescaped: Self.hoursJoin)
            """, logger: logger)
        for try await (store, date, type, hours) in rows.decode((String, SQLDate, String, String?).self) {
            calendar.set(DayType(rawValue: type) ?? .weekday, store: store, on: date.date)
            if let hours { calendar.setHours(hours, store: store, on: date.date) }
        }
        return calendar
    }

    /// Offered contacts per date, queue and slot, over every store, for `dates`.
    public func offered(_ dates: ClosedRange<CivilDate>, queue: String?) async throws -> OfferedHistory {
        var result = OfferedHistory()
        let rows = try await client.query(
            """
            SELECT business_date, queue, slot::int, sum(offered)::float8
            FROM staffing_history
            WHERE business_date BETWEEN \(SQLDate(dates.lowerBound)) AND \(SQLDate(dates.upperBound))
              AND (\(queue)::text IS NULL OR queue = \(queue))
            GROUP BY business_date, queue, slot
            """, logger: logger)
        for try await (date, id, slot, count) in rows.decode((SQLDate, String, Int, Double).self) {
            result.add(count, queue: id, slot: DaySlot(slot), on: date.date)
        }
        return result
    }

    /// Stores a plan and its intervals in one transaction.
    /// - Parameters:
    ///   - request: What the plan was asked for.
    ///   - queueId: The id of the one queue asked for (the request may name it by name).
    /// - Returns: its `plan_id`.
    public func save(
        _ plan: StaffingPlan, request: StaffingPlanRequest, queueId: String?, queueNames: [String: String]
    ) async throws -> Int {
        try await save(request, queueId: queueId, queueNames: queueNames) { write in
            try await write(plan.rows[...])
            return plan
        }.planId
    }

    /// The rows of a plan's intervals sent to PostgreSQL at once, at most.
    static let rowsPerWrite = 2_000

    /// Stores a plan while `make` makes it, in one transaction.
    ///
    /// `make` hands each part of the plan's rows to `write` as it staffs them; `write` streams
    /// them to PostgreSQL (`COPY`), which stores one part while the next is being staffed. The
    /// plan's own row, with the inputs and the notes, follows the intervals.
    /// - Returns: the plan `make` returned and its `plan_id`.
    public func save(
        _ request: StaffingPlanRequest, queueId: String?, queueNames: [String: String],
        making make: (_ write: (ArraySlice<StaffingPlan.Row>) async throws -> Void) async throws -> StaffingPlan
    ) async throws -> (plan: StaffingPlan, planId: Int) {
        let logger = self.logger
        do {
            return try await writePlan(
                request, queueId: queueId, queueNames: queueNames, making: make, logger: logger)
        } catch let error as PostgresTransactionError {
            // What `make` threw (a plan it cannot staff, a cancellation) comes out as itself when
            // the rollback went through.
            if let thrown = error.closureError, error.rollbackError == nil { throw thrown }
            throw error
        }
    }

    /// ``save(_:queueId:queueNames:making:)``'s transaction.
    private func writePlan(
        _ request: StaffingPlanRequest, queueId: String?, queueNames: [String: String],
        making make: (_ write: (ArraySlice<StaffingPlan.Row>) async throws -> Void) async throws -> StaffingPlan,
        logger: Logger
    ) async throws -> (plan: StaffingPlan, planId: Int) {
        try await client.withTransaction(logger: logger) { connection in
            var planId = 0
            let id = try await connection.query(
                "SELECT nextval(pg_get_serial_sequence('staffing_plan', 'plan_id'))", logger: logger)
            for try await value in id.decode(Int.self) { planId = value }
            // Each date's midnight in the analytics time zone, once: a slot starts slot × 15
            // minutes after it (past midnight included), as the history counts slots.
            var midnights: [CivilDate: Int] = [:]
            let (from, to) = (SQLDate(request.dates.lowerBound), SQLDate(request.dates.upperBound))
            let dates = try await connection.query(
                """
                SELECT d::date, extract(epoch FROM d AT TIME ZONE analytics_time_zone())::bigint
                FROM generate_series(\(from)::timestamp, \(to)::timestamp, interval '1 day') AS d
                """, logger: logger)
            for try await (date, midnight) in dates.decode((SQLDate, Int).self) { midnights[date.date] = midnight }

            var made: StaffingPlan?
            try await connection.copyFrom(
                table: "staffing_plan_interval",
                columns: [
                    "plan_id", "queue", "queue_name", "interval_start", "day_types", "forecast_offered",
                    "forecast_aht_s", "patience_s", "offered_load", "agents", "fractional_agents", "scheduled_agents",
                    "scheduled_fractional_agents", "service_level", "connect_service_level",
                    "probability_of_waiting", "average_speed_of_answer_s", "occupancy", "probability_of_abandoning",
                ],
                logger: logger
            ) { writer in
                var text = CopyTextRows(capacity: Self.rowsPerWrite * 320)
                made = try await make { rows in
                    var written = 0
                    for row in rows {
                        guard let requirement = row.requirement else { continue }
                        let f = row.forecast
                        guard let midnight = midnights[f.date] else {
                            throw StorageError(
                                code: .notFound,
                                message:
                                    "a plan row of \(f.date), outside the plan's dates \(request.dates)")
                        }
                        let p = requirement.performance
                        text.integer(planId)
                        text.text(f.queue)
                        text.text(queueNames[f.queue])
                        text.timestamp(epochSeconds: midnight + f.slot.secondsAfterMidnight)
                        text.text(f.dayTypesLabel)
                        text.double(f.offered)
                        text.double(f.averageHandleTimeSeconds)
                        text.double(row.patienceSeconds)
                        text.double(p.offeredLoad)
                        text.integer(requirement.agents)
                        text.double(requirement.fractionalAgents)
                        text.integer(row.scheduledAgents)
                        text.double(row.scheduledFractionalAgents)
                        text.double(p.serviceLevel)
                        text.double(p.connectServiceLevel)
                        text.double(p.probabilityOfWaiting)
                        text.double(p.averageSpeedOfAnswerSeconds)
                        text.double(p.occupancy)
                        text.double(p.probabilityOfAbandoning)
                        text.endRow()
                        written += 1
                        if written % Self.rowsPerWrite == 0 {
                            try await writer.write(ByteBuffer(bytes: text.bytes))
                            text.removeAll()
                        }
                    }
                    if !text.isEmpty {
                        try await writer.write(ByteBuffer(bytes: text.bytes))
                        text.removeAll()
                    }
                }
            }
            // `copyFrom` returns only after its closure ran to its end.
            guard let plan = made else { preconditionFailure("COPY ended without its rows") }
            try await connection.query(
                """
                INSERT INTO staffing_plan (plan_id, from_date, to_date, queue_filter, model, service_level_target,
                    threshold_s, max_occupancy, shrinkage, forecast_method, notes)
                OVERRIDING SYSTEM VALUE
                VALUES (\(planId), \(from), \(to), \(queueId), \(request.model.rawValue),
                    \(request.target.serviceLevel), \(request.target.thresholdSeconds),
                    \(request.target.maximumOccupancy), \(request.shrinkage), \(Method.description), \(plan.notes))
                """, logger: logger)
            return (plan, planId)
        }
    }
}
