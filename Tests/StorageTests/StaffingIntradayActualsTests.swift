import ContactCenter
import Foundation
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// `staffing_intraday_actuals`, the reforecast's read of a business day so far, over contacts
/// written by the ingest writer: each store files a contact by its own time zone and business
/// hours, and the read's time bounds keep every contact of the day, however far from the analytics
/// time zone its store lies.
///
/// Business day D = 2026-11-18. The fixture's base is D 10:00 JST; every contact enters its queue
/// 20 s after its start (see `AnalystFixtures`).
/// - test-bistro (Asia/Tokyo) is open D 09:00 until D+1 02:00, so a call at D+1 01:00 is D's, in
///   slot 100 (25 h after D's midnight), and one at D+1 02:30 is D+1's.
/// - test-atoll (Pacific/Kiritimati, 5 h ahead of Tokyo) starts D at D-1 19:00 JST: a call at its
///   D 00:30 (D-1 19:30 JST) is D's slot 2, one at its D-1 23:50 is D-1's slot 95.
/// - test-ghost is in no store row and files by the analytics time zone (Asia/Tokyo).
@Suite("The intraday reforecast's read of a business day", .enabled(if: TestDatabase.enabled))
struct StaffingIntradayActualsTests {
    typealias Fixture = AnalystFixtures
    typealias Slot = IntradayReforecast.ActualSlot

    static let day = CivilDate(year: 2026, month: 11, day: 18)!
    static let baseSeconds = Double(Fixture.base.millisecondsSince1970 / 1000)

    static var records: [ContactTraceRecord] {
        func answered(_ id: String, at: Int64, store: String, queue: (arn: String, name: String)) -> ContactTraceRecord
        {
            Fixture.record(
                id, at: at, store: store, queue: queue, wait: 10, agent: Fixture.taro, talk: 100, acw: 20,
                attempts: 1, reason: "AGENT_DISCONNECT")
        }
        return [
            answered("bistro-morning", at: 0, store: "test-bistro", queue: Fixture.reservations),
            answered("bistro-takeout", at: 60, store: "test-bistro", queue: Fixture.takeout),
            // D+1 01:00 JST, hung up in queue: still business day D.
            Fixture.record(
                "bistro-late", at: 54_000, store: "test-bistro", wait: 30, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
            // D+1 02:30 JST: after D's hours, business day D+1.
            answered("bistro-next", at: 59_400, store: "test-bistro", queue: Fixture.reservations),
            // The atoll's D 00:30 = D-1 19:30 JST.
            answered("atoll-early", at: -52_200, store: "test-atoll", queue: Fixture.reservations),
            // The atoll's D-1 23:50 = D-1 18:50 JST.
            answered("atoll-eve", at: -54_600, store: "test-atoll", queue: Fixture.reservations),
            answered("ghost-morning", at: 120, store: "test-ghost", queue: Fixture.reservations),
        ]
    }

    static func prepared(_ name: String, _ body: @Sendable (StaffingStore) async throws -> Void) async throws {
        try await IngestWriterTests.migrated(name) { client in
            try await client.query(
                """
                INSERT INTO store (store_id, name, time_zone, calendar_id, hours_profile)
                VALUES ('test-bistro', 'Bistro', 'Asia/Tokyo', 'jp', 'late'),
                       ('test-atoll', 'Atoll', 'Pacific/Kiritimati', 'jp', 'plain')
                """, logger: TestDatabase.logger)
            try await client.query(
                """
                INSERT INTO store_business_day (store_id, business_date, day_type, opens_at, closes_at)
                SELECT s, d::date, 'weekday', (d::date + time '09:00') AT TIME ZONE z,
                       (d::date + close) AT TIME ZONE z
                FROM (VALUES ('test-bistro', '2026-11-17', 'Asia/Tokyo', interval '23 hours'),
                             ('test-bistro', '2026-11-18', 'Asia/Tokyo', interval '26 hours'),
                             ('test-bistro', '2026-11-19', 'Asia/Tokyo', interval '23 hours'),
                             ('test-atoll', '2026-11-17', 'Pacific/Kiritimati', interval '23 hours'),
                             ('test-atoll', '2026-11-18', 'Pacific/Kiritimati', interval '23 hours'))
                    AS v(s, d, z, close)
                """, logger: TestDatabase.logger)
            let sources = records.enumerated().map { offset, record in
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: Int64(offset), key: nil,
                    value: Array(record.jsonData()))
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            try await body(StaffingStore(client: client, logger: TestDatabase.logger))
        }
    }

    static let morning = Slot(
        offeredByStore: ["test-bistro": 1, "test-ghost": 1], answered: 2, handleSeconds: 240, handled: 2)
    static let one = Slot(offeredByStore: ["test-atoll": 1], answered: 1, handleSeconds: 120, handled: 1)
    static let late = Slot(offeredByStore: ["test-bistro": 1], abandoned: 1)
    static let takeout = Slot(offeredByStore: ["test-bistro": 1], answered: 1, handleSeconds: 120, handled: 1)

    @Test("each contact by its store's time zone and hours; the day before and after keep theirs")
    func wholeDay() async throws {
        try await Self.prepared("intraday_actuals_day") { store in
            let all = try await store.intradayActuals(on: Self.day, before: nil, queue: nil)
            #expect(
                all == [
                    Fixture.reservations.arn: [
                        DaySlot(2): Self.one, DaySlot(40): Self.morning, DaySlot(100): Self.late,
                    ],
                    Fixture.takeout.arn: [DaySlot(40): Self.takeout],
                ])
            let before = try await store.intradayActuals(on: Self.day.adding(days: -1), before: nil, queue: nil)
            #expect(before == [Fixture.reservations.arn: [DaySlot(95): Self.one]])
            let after = try await store.intradayActuals(on: Self.day.adding(days: 1), before: nil, queue: nil)
            #expect(
                after == [
                    Fixture.reservations.arn: [
                        DaySlot(10): Slot(
                            offeredByStore: ["test-bistro": 1], answered: 1, handleSeconds: 120, handled: 1)
                    ]
                ])
        }
    }

    @Test("an instant counts only contacts queued before it; a queue only its own")
    func instantAndQueue() async throws {
        try await Self.prepared("intraday_actuals_instant") { store in
            // D+1 00:30 JST: the late call is yet to come.
            let halfPast = try await store.intradayActuals(
                on: Self.day, before: Self.baseSeconds + 52_200, queue: nil)
            #expect(
                halfPast == [
                    Fixture.reservations.arn: [DaySlot(2): Self.one, DaySlot(40): Self.morning],
                    Fixture.takeout.arn: [DaySlot(40): Self.takeout],
                ])
            // D 10:00:20 JST exactly: the bistro's first call entered its queue then, not before.
            let atTen = try await store.intradayActuals(on: Self.day, before: Self.baseSeconds + 20, queue: nil)
            #expect(atTen == [Fixture.reservations.arn: [DaySlot(2): Self.one]])
            let reservations = try await store.intradayActuals(
                on: Self.day, before: nil, queue: Fixture.reservations.arn)
            #expect(
                reservations == [
                    Fixture.reservations.arn: [
                        DaySlot(2): Self.one, DaySlot(40): Self.morning, DaySlot(100): Self.late,
                    ]
                ])
        }
    }
}
