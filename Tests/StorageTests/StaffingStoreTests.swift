import ContactCenter
import Foundation
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// The staffing forecast from real rows: contacts written by the ingest writer, `staffing_history`
/// refreshed from them, each store forecast by its own day type, closures never baselines, a
/// missing day type falling back with a note, and the plan stored for analysts.
///
/// Two stores feed Reservations, every contact at 10:00 JST (slot 40). The bistro's days: weekday
/// 4 contacts, weekend 8, holiday 12, pre-holiday 6, and a closure day with 20 that must never be
/// a baseline. The izakaya's: weekday 2, weekend 3, and no holiday in its history. Every day the
/// first contact hangs up after 30 s in queue, the others are answered after 10 s and handled in
/// 100 s of talk + 20 s of after-contact work.
@Suite("Staffing forecast and plan over real rows", .enabled(if: TestDatabase.enabled))
struct StaffingStoreTests {
    typealias Fixture = AnalystFixtures

    /// History: 2026-10-19 … 2026-11-24, the day before the plan (base is 2026-11-18, a Wednesday).
    static let historyOffsets = -30...6

    static let bistroSpecial: [String: String] = [
        "2026-11-02": "pre_holiday", "2026-11-03": "holiday", "2026-11-10": "closure", "2026-11-22": "pre_holiday",
        "2026-11-23": "holiday", "2026-11-27": "pre_holiday", "2026-11-28": "holiday", "2026-11-30": "closure",
    ]
    static let izakayaSpecial: [String: String] = ["2026-11-26": "holiday"]

    static func volume(store: String, dayType: String) -> Int {
        switch (store, dayType) {
        case ("test-bistro", "weekday"): 4
        case ("test-bistro", "weekend"): 8
        case ("test-bistro", "holiday"): 12
        case ("test-bistro", "pre_holiday"): 6
        case ("test-bistro", "closure"): 20
        case (_, "weekend"): 3
        default: 2
        }
    }

    /// `YYYY-MM-DD` and weekend of base + offset days.
    static func date(_ text: String) -> CivilDate { CivilDate(parsing: text)! }

    static func day(_ offset: Int) -> (date: String, weekend: Bool) {
        let (y, m, d) = CivilDays.civil(dayNumber: CivilDays.dayNumber(year: 2026, month: 11, day: 18) + offset)
        let weekday = (CivilDays.dayNumber(year: y, month: m, day: d) + 3) % 7  // 0 = Monday
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return ("\(y)-\(two(m))-\(two(d))", weekday >= 5)
    }

    static func dayType(store: String, offset: Int) -> String {
        let (date, weekend) = day(offset)
        let special = store == "test-bistro" ? bistroSpecial : izakayaSpecial
        return special[date] ?? (weekend ? "weekend" : "weekday")
    }

    static var records: [ContactTraceRecord] {
        var records: [ContactTraceRecord] = []
        for offset in historyOffsets {
            for store in ["test-bistro", "test-izakaya"] {
                let count = volume(store: store, dayType: dayType(store: store, offset: offset))
                for k in 0..<count {
                    let at = Int64(offset * 86_400 + k * 30)
                    let id = "\(store)-\(offset)-\(k)"
                    records.append(
                        k == 0
                            ? Fixture.record(
                                id, at: at, store: store, wait: 30, attempts: 0, reason: "CUSTOMER_DISCONNECT")
                            : Fixture.record(
                                id, at: at, store: store, wait: 10, agent: Fixture.taro, talk: 100, acw: 20,
                                attempts: 1, reason: "AGENT_DISCONNECT"))
                }
            }
        }
        return records
    }

    static func prepared(_ name: String, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        try await IngestWriterTests.migrated(name) { client in
            var stores: [String] = []
            var dates: [String] = []
            var types: [String] = []
            for offset in -60...50 {
                for store in ["test-bistro", "test-izakaya"] {
                    stores.append(store)
                    dates.append(day(offset).date)
                    types.append(dayType(store: store, offset: offset))
                }
            }
            try await client.query(
                """
                INSERT INTO store_business_day (store_id, business_date, day_type, opens_at, closes_at)
                SELECT s, d::date, t,
                       CASE WHEN t <> 'closure' THEN (d::date + time '09:00') AT TIME ZONE 'Asia/Tokyo' END,
                       CASE WHEN t <> 'closure' THEN (d::date + time '23:00') AT TIME ZONE 'Asia/Tokyo' END
                FROM unnest(\(stores), \(dates), \(types)) AS v(s, d, t)
                """, logger: TestDatabase.logger)
            let sources = records.enumerated().map { offset, record in
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: Int64(offset), key: nil,
                    value: Array(record.jsonData()))
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            try await body(client)
        }
    }

    @Test("each store by its own day type; closures never baselines; a missing holiday falls back with a note")
    func forecast() async throws {
        try await Self.prepared("staffing_forecast") { client in
            let store = StaffingStore(client: client, logger: TestDatabase.logger)
            #expect(try await store.refreshHistory() > 0)
            let queues = try await store.queues(before: Self.date("2026-11-25"), queue: nil)
            let reservations = try #require(queues[Fixture.reservations.arn])
            #expect(reservations.name == "Reservations")
            #expect(reservations.stores == ["test-bistro", "test-izakaya"])
            #expect(reservations.averageHandleTimeSeconds == 120)
            // Patience: Σ queue seconds of every queued contact / abandoned, over all history days.
            let days = Self.historyOffsets.count * 2
            let contacts = Self.records.count
            let expectedPatience = Double(30 * days + 10 * (contacts - days)) / Double(days)
            #expect(abs((reservations.patienceSeconds ?? 0) - expectedPatience) < 1e-9)

            let baselines = try await store.baselines(before: Self.date("2026-11-25"), queue: nil)
            // Ordinary days by their own weekday, special ones excluded (history 2026-10-19, a
            // Monday, to 11-24). The bistro's Mondays: 10-19, 10-26, 11-09, 11-16 (11-02 is a
            // pre-holiday, 11-23 a holiday); Tuesdays: 10-20, 10-27, 11-17, 11-24 (11-03 a holiday,
            // 11-10 a closure); Wednesdays to Saturdays 5 each; Sundays 4 (11-22 a pre-holiday).
            // The izakaya has no special day before 11-26: 6 Mondays and Tuesdays, 5 of the others.
            // Holidays and pre-holidays pool over weekdays: 2 each for the bistro.
            func baselineDays(_ store: String, _ type: DayType, _ weekday: Weekday?) -> Int? {
                baselines[
                    StaffingBaselineKey(
                        queue: Fixture.reservations.arn, store: store, dayType: type, weekday: weekday)]?.days
            }
            let bistro: [(DayType, Weekday, Int)] = [
                (.weekday, .monday, 4), (.weekday, .tuesday, 4), (.weekday, .wednesday, 5), (.weekday, .thursday, 5),
                (.weekday, .friday, 5), (.weekend, .saturday, 5), (.weekend, .sunday, 4),
            ]
            for (type, weekday, count) in bistro {
                #expect(baselineDays("test-bistro", type, weekday) == count, "\(weekday)")
            }
            let izakaya: [(DayType, Weekday, Int)] = [
                (.weekday, .monday, 6), (.weekday, .tuesday, 6), (.weekday, .wednesday, 5), (.weekend, .sunday, 5),
            ]
            for (type, weekday, count) in izakaya {
                #expect(baselineDays("test-izakaya", type, weekday) == count, "\(weekday)")
            }
            // Every day opens 09:00-23:00 (the fixture's hours): one group each.
            #expect(
                baselines[
                    StaffingBaselineKey(
                        queue: Fixture.reservations.arn, store: "test-bistro", dayType: .holiday, hours: "09:00-23:00")]?
                    .days == 2)
            #expect(
                baselines[
                    StaffingBaselineKey(
                        queue: Fixture.reservations.arn, store: "test-bistro", dayType: .preHoliday,
                        hours: "09:00-23:00")]?.days == 2)
            #expect(baselineDays("test-bistro", .holiday, nil) == nil)
            #expect(baselineDays("test-bistro", .weekday, nil) == nil)
            #expect(baselineDays("test-bistro", .weekday, .saturday) == nil)
            let calendar = try await store.calendar(Self.date("2026-11-25")...Self.date("2026-11-30"))
            #expect(calendar.dates.count == 6)
            let forecast = StaffingForecast(queues: queues, baselines: baselines, calendar: calendar)
            var at40: [String: (Double, String)] = [:]
            for interval in forecast.intervals where interval.slot == DaySlot(40) {
                at40[interval.date.description] = (interval.offered, interval.dayTypesLabel)
            }
            let expected: [String: (Double, String)] = [
                "2026-11-25": (4 + 2, "weekday"),
                "2026-11-26": (4 + 3, "weekday+holiday"),  // the izakaya's holiday, from its weekends
                "2026-11-27": (6 + 2, "weekday+pre_holiday"),
                "2026-11-28": (12 + 3, "weekend+holiday"),
                "2026-11-29": (8 + 3, "weekend"),
                "2026-11-30": (0 + 2, "weekday+closure"),  // 20 on the last closure never counts
            ]
            for (date, (offered, types)) in expected {
                let actual = try #require(at40[date], "\(date)")
                #expect(abs(actual.0 - offered) < 1e-9, "\(date): \(actual.0)")
                #expect(actual.1 == types, "\(date)")
            }
            #expect(forecast.notes == ["no history for holidays of queue Reservations: falling back to weekends"])
            #expect(forecast.intervals.allSatisfy { abs(($0.averageHandleTimeSeconds ?? 0) - 120) < 1e-9 })

            let target = try ServiceTarget(parsing: "80/20")
            let plan = try StaffingPlan(
                forecast: forecast, queues: queues, model: .erlangA, target: target, shrinkage: 0.3)
            let request = try StaffingPlanRequest(
                dates: Self.date("2026-11-25")...Self.date("2026-11-30"), queue: nil, model: .erlangA, target: target,
                shrinkage: 0.3)
            let planId = try await store.save(
                plan,
                request: request, queueId: nil,
                // A name with every byte COPY's text format escapes.
                queueNames: [Fixture.reservations.arn: "Reservations\t予約\\\n\r"])
            let rows = try await client.query(
                """
                SELECT count(*)::int, sum(agents)::int, min(patience_s), bool_and(scheduled_agents >= agents)
                FROM staffing_plan_interval WHERE plan_id = \(planId)
                """, logger: TestDatabase.logger)
            for try await (count, agents, patience, scheduledMore) in rows.decode((Int, Int, Double, Bool).self) {
                #expect(count == plan.rows.count)
                #expect(agents == plan.rows.reduce(0) { $0 + ($1.requirement?.agents ?? 0) })
                #expect(abs(patience - expectedPatience) < 1e-9)
                #expect(scheduledMore)
            }
            let interval = try await client.query(
                """
                SELECT to_char(interval_start AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD HH24:MI'), forecast_offered
                FROM staffing_plan_interval WHERE plan_id = \(planId) AND forecast_offered > 0
                ORDER BY interval_start LIMIT 1
                """, logger: TestDatabase.logger)
            for try await (start, offered) in interval.decode((String, Double).self) {
                #expect(start == "2026-11-25 10:00")
                #expect(abs(offered - 6) < 1e-9)
            }
            let names = try await client.query(
                "SELECT DISTINCT queue_name FROM staffing_plan_interval WHERE plan_id = \(planId)",
                logger: TestDatabase.logger)
            var stored: [String?] = []
            for try await name in names.decode(String?.self) { stored.append(name) }
            #expect(stored == ["Reservations\t予約\\\n\r"])
            // What the plan's maker throws mid-COPY comes out as itself, and nothing is stored.
            struct Refused: Error {}
            let before = try await client.query(
                "SELECT count(*)::int FROM staffing_plan", logger: TestDatabase.logger)
            var plans = 0
            for try await count in before.decode(Int.self) { plans = count }
            await #expect(throws: Refused.self) {
                _ = try await store.save(
                    request, queueId: nil,
                    queueNames: [:]
                ) { write in
                    try await write(plan.rows.prefix(1))
                    throw Refused()
                }
            }
            let after = try await client.query(
                "SELECT count(*)::int FROM staffing_plan", logger: TestDatabase.logger)
            for try await count in after.decode(Int.self) { #expect(count == plans) }
            // A plan's intervals go with it.
            try await client.query("DELETE FROM staffing_plan WHERE plan_id = \(planId)", logger: TestDatabase.logger)
            let left = try await client.query(
                "SELECT count(*)::int FROM staffing_plan_interval WHERE plan_id = \(planId)",
                logger: TestDatabase.logger)
            for try await count in left.decode(Int.self) { #expect(count == 0) }
        }
    }

    @Test("refreshes asked at once run one after another: none fails, and the history is one refresh's")
    func concurrentRefreshes() async throws {
        try await Self.prepared("staffing_refresh_together") { client in
            #expect(try await StaffingStore(client: client, logger: TestDatabase.logger).refreshHistory() > 0)
            let once = try await Self.history(client)
            // Each deletes and re-inserts the same days: two at once would collide on the primary key.
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let rows = try await client.query(
                            "SELECT staffing_history_refresh('2026-10-19', '2026-11-24')::int",
                            logger: TestDatabase.logger)
                        for try await count in rows.decode(Int.self) { return count }
                        return 0
                    }
                }
                for try await rows in group { #expect(rows > 0) }
            }
            #expect(try await Self.history(client) == once)
        }
    }

    @Test("staffing_history_day is staffing_history per day; a refresh through yesterday within the period is skipped")
    func historyByDay() async throws {
        try await Self.prepared("staffing_history_day") { client in
            let store = StaffingStore(client: client, logger: TestDatabase.logger)
            // Through a date after the fixture's last day, not the database's yesterday: a refresh
            // at 00:00 would otherwise move it between the statements below.
            let yesterday = CivilDate(year: 2026, month: 11, day: 30)!
            #expect(try await store.refreshHistory(through: yesterday) > 0)
            // The day rows, unnested, are the slot rows with their totals.
            let compared = try await client.query(
                """
                SELECT (SELECT count(*) FROM staffing_history)::int,
                       (SELECT count(*) FROM staffing_history_day)::int,
                       (SELECT count(*)::int FROM (
                           SELECT queue, store_id, business_date, slot, offered, handle_s, handle_n
                           FROM staffing_history
                           EXCEPT
                           SELECT d.queue, d.store_id, d.business_date, u.slot, u.offered, u.handle_s, u.handle_n
                           FROM staffing_history_day d,
                                unnest(d.slots, d.offered_by_slot, d.handle_s_by_slot, d.handle_n_by_slot)
                                    AS u(slot, offered, handle_s, handle_n)) AS missing),
                       (SELECT count(*)::int FROM staffing_history_day d
                        JOIN (SELECT queue, store_id, business_date, sum(offered)::int AS offered,
                                     sum(abandoned)::int AS abandoned, sum(handle_s)::bigint AS handle_s,
                                     sum(handle_n)::int AS handle_n, sum(queue_s)::bigint AS queue_s
                              FROM staffing_history GROUP BY queue, store_id, business_date) AS h
                            USING (queue, store_id, business_date)
                        WHERE (d.offered, d.abandoned, d.handle_s, d.handle_n, d.queue_s)
                              IS DISTINCT FROM (h.offered, h.abandoned, h.handle_s, h.handle_n, h.queue_s)),
                       (SELECT count(*)::int FROM (SELECT DISTINCT queue, store_id, business_date FROM staffing_history) AS x)
                """, logger: TestDatabase.logger)
            for try await (slots, days, missing, wrongTotals, historyDays) in compared.decode(
                (Int, Int, Int, Int, Int).self)
            {
                #expect(slots >= days && days > 0)
                #expect(days == historyDays)
                #expect(missing == 0)
                #expect(wrongTotals == 0)
            }
            // The fixture's history ends before that date: a refresh through it was recorded.
            let recorded = try await client.query(
                """
                SELECT through_date = '2026-11-30'::date,
                       refreshed_at > now() - interval '1 minute'
                FROM staffing_refresh
                """, logger: TestDatabase.logger)
            for try await (throughYesterday, recent) in recorded.decode((Bool, Bool).self) {
                #expect(throughYesterday && recent)
            }
            #expect(
                try await store.refreshHistory(through: yesterday, unlessRefreshedWithin: .seconds(300)) == 0,
                "refreshed just now")
            try await client.query(
                "UPDATE staffing_refresh SET refreshed_at = now() - interval '301 seconds'", logger: TestDatabase.logger
            )
            #expect(
                try await store.refreshHistory(through: yesterday, unlessRefreshedWithin: .seconds(300)) > 0,
                "the period is over")
            try await client.query(
                "UPDATE staffing_refresh SET through_date = through_date - 1", logger: TestDatabase.logger)
            #expect(
                try await store.refreshHistory(through: yesterday, unlessRefreshedWithin: .seconds(300)) > 0,
                "not through yesterday")
            #expect(try await store.refreshHistory(through: yesterday) > 0, "no period: always")
        }
    }

    /// Every row of `staffing_history`, as text, in key order.
    static func history(_ client: PostgresClient) async throws -> [String] {
        let rows = try await client.query(
            """
            SELECT concat_ws(' ', queue, store_id, business_date, slot, queued, offered, answered, abandoned,
                             handle_s, handle_n, queue_s)
            FROM staffing_history ORDER BY queue, store_id, business_date, slot
            """, logger: TestDatabase.logger)
        var lines: [String] = []
        for try await line in rows.decode(String.self) { lines.append(line) }
        return lines
    }
}
