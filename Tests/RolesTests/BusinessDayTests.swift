import ContactCenter
import Foundation
import Logging
import OperatingHours
import PostgresNIO
import Roles
import Services
import Storage
import SwitchboardTesting
import Testing

/// One business-day truth: the analysts' SQL files an instant into the same business date and
/// day type as the IVR hook's evaluator.
@Suite("Business days: SQL equals the hook", .enabled(if: TestDatabase.enabled), .watched)
struct BusinessDayTests {
    static let logger = Logger(label: "test.business-days")

    @Test("every store of flows/, every hour of 2025–2027: business date and day type equal the hook's")
    func sqlEqualsHook() async throws {
        let flows = try FlowStore.load(directory: Repository.flowsDirectory).flows
        try await TestDatabase.withFreshDatabase("business_days") { client, _ in
            try await TestDatabase.migrate(client)
            // A contact of 2025 and "now" in 2026: the years written are 2025 (data) through 2027 (next year).
            let old = ContactTraceRecord(
                contactId: "old", initiationTimestamp: UTCTimestamp(millisecondsSince1970: 1_740_787_200_000),
                lastUpdateTimestamp: UTCTimestamp(millisecondsSince1970: 1_740_787_200_000))
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger).write(
                IngestDecoder().decode([
                    SourceRecord(
                        topic: "contact-records", partition: 0, offset: 0, key: nil, value: Array(old.jsonData()))
                ]),
                claims: nil)
            let now = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01
            try await AnalystCalendar.sync(client: client, flows: flows, logger: Self.logger, now: now)

            // The hook's answer for every store at every hour (Tokyo) of 2025-01-01 … 2027-12-31,
            // one text per store ("date/day type" per hour, comma-separated): a few binds, not 600k.
            let first: Int64 = 1_735_657_200  // 2025-01-01T00:00:00+09:00
            let last: Int64 = 1_830_265_200  // 2028-01-01T00:00:00+09:00
            var stores: [String] = []
            var answers: [String] = []
            for store in flows.stores {
                var text = ""
                text.reserveCapacity(26_280 * 20)
                for second in stride(from: first, to: last, by: 3_600) {
                    let decision = store.schedule.decision(atSecond: second)
                    if second != first { text += "," }
                    text += decision.day.date.description + "/" + decision.dayType.rawValue
                }
                stores.append(store.id)
                answers.append(text)
            }
            let rows = try await client.query(
                """
                WITH compared AS (
                    SELECT e.store_id, to_timestamp(e.at) AS at, e.business_date AS hook_date, e.day_type AS hook_type,
                           b.business_date::text AS sql_date, b.day_type AS sql_type
                    FROM (
                        SELECT s.store_id, \(first) + (h.hour - 1) * 3600 AS at,
                               split_part(h.answer, '/', 1) AS business_date, split_part(h.answer, '/', 2) AS day_type
                        FROM unnest(\(stores), \(answers)) AS s(store_id, answers)
                        CROSS JOIN LATERAL unnest(string_to_array(s.answers, ',')) WITH ORDINALITY AS h(answer, hour)
                    ) AS e
                    CROSS JOIN LATERAL store_business_day_at(e.store_id, to_timestamp(e.at)) AS b
                )
                SELECT count(*),
                       count(*) FILTER (WHERE sql_date IS DISTINCT FROM hook_date OR sql_type IS DISTINCT FROM hook_type),
                       coalesce((array_agg(store_id || ' at ' || at || ': hook ' || hook_date || ' ' || hook_type
                                           || ', SQL ' || coalesce(sql_date, '-') || ' ' || coalesce(sql_type, '-'))
                                 FILTER (WHERE sql_date IS DISTINCT FROM hook_date OR sql_type IS DISTINCT FROM hook_type)
                                )[1:10], '{}')
                FROM compared
                """,
                logger: TestDatabase.logger)
            for try await (compared, differences, examples) in rows.decode((Int, Int, [String]).self) {
                #expect(compared == flows.stores.count * 26_280)
                #expect(differences == 0, "e.g. \(examples)")
            }
        }
    }

    @Test("calendar_day covers the calendar's whole range; stores and their special days are written")
    func calendarAndStores() async throws {
        let flows = try FlowStore.load(directory: Repository.flowsDirectory).flows
        try await TestDatabase.withFreshDatabase("business_days_calendar") { client, _ in
            try await TestDatabase.migrate(client)
            try await AnalystCalendar.sync(
                client: client, flows: flows, logger: Self.logger, now: Date(timeIntervalSince1970: 1_780_272_000))
            let rows = try await client.query(
                """
                SELECT (SELECT min(day)::text FROM calendar_day), (SELECT max(day)::text FROM calendar_day),
                       (SELECT count(*) FROM store),
                       (SELECT min(business_date)::text FROM store_business_day),
                       (SELECT max(business_date)::text FROM store_business_day),
                       (SELECT day_type || '/' || hours_reason FROM store_business_day
                        WHERE store_id = 'roppongi-yakiniku' AND business_date = '2027-06-01'),
                       (SELECT day_type FROM store_business_day
                        WHERE store_id = 'tsukiji-sushi' AND business_date = '2027-02-09')
                """,
                logger: TestDatabase.logger)
            for try await row in rows.decode((String, String, Int, String, String, String?, String?).self) {
                #expect(row.0 == "1948-09-23", "the first holiday after the 1948 Act took effect")
                #expect(row.1.hasPrefix("2150-"))
                #expect(row.2 == flows.stores.count)
                // No contacts, now = 2026: the current and the next year, and a day either side.
                #expect(row.3 == "2025-12-31")
                #expect(row.4 == "2028-01-01")
                #expect(row.5 == "holiday/創業記念日", "the chain calendar's founding day")
                #expect(row.6 == "closure", "the store's renovation closure")
            }
        }
    }

    @Test("the same stores, days and holidays again are kept; one changed, missing or extra row rewrites them")
    func unchangedKept() async throws {
        let flows = try FlowStore.load(directory: Repository.flowsDirectory).flows
        try await TestDatabase.withFreshDatabase("business_days_kept") { client, _ in
            try await TestDatabase.migrate(client)
            let now = Date(timeIntervalSince1970: 1_780_272_000)
            try await AnalystCalendar.sync(client: client, flows: flows, logger: Self.logger, now: now)
            #expect(
                !(try await AnalystCalendar.syncBusinessDays(
                    client: client, flows: flows, logger: Self.logger, now: now)))

            let store = BusinessDayStore(client: client, logger: Self.logger)
            let (stores, days) = AnalystCalendar.businessDays(of: flows, years: 2026...2027)
            #expect(!(try await store.replace(stores: stores, days: days)))

            var changed = days
            let index = changed.firstIndex { $0.storeId == "tsukiji-sushi" && $0.businessDate == "2027-02-09" }!
            changed[index].dayType = "weekday"
            changed[index].hoursReason = "edited"
            #expect(try await store.replace(stores: stores, days: changed))
            let rows = try await client.query(
                """
                SELECT day_type, hours_reason FROM store_business_day
                WHERE store_id = 'tsukiji-sushi' AND business_date = '2027-02-09'
                """, logger: TestDatabase.logger)
            for try await (type, reason) in rows.decode((String, String?).self) {
                #expect(type == "weekday" && reason == "edited")
            }
            #expect(try await store.replace(stores: stores, days: Array(changed.dropLast())), "a row fewer")
            #expect(try await store.replace(stores: stores, days: changed), "a row more")
            var renamed = stores
            renamed[0].name += " (new)"
            #expect(try await store.replace(stores: renamed, days: changed), "a store's name")
            #expect(!(try await store.replace(stores: renamed, days: changed)))

            let calendar = CalendarStore(client: client, logger: Self.logger)
            let japanese = flows.calendars[FlowSet.japaneseCalendarId] ?? JapaneseHolidayCalendar.standard
            let holidays = japanese.holidays(inYear: 2027).map {
                CalendarDay(day: $0.date.description, nameJa: $0.nameJa, nameEn: $0.nameEn, kind: $0.kind.rawValue)
            }
            #expect(!(try await calendar.replace(years: 2027...2027, with: holidays)))
            #expect(try await calendar.replace(years: 2027...2027, with: Array(holidays.dropFirst())))
            #expect(try await calendar.replace(years: 2027...2027, with: holidays))
        }
    }
}
