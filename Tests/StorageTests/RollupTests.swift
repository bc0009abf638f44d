import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Synchronization
import Testing

/// The rollups behind the analyst views stay exact under what the ingest sees: re-delivered
/// batches, versions out of order, a newer version moving a contact to another queue, interval,
/// store and business day, a next contact arriving after its previous one, agent events out of
/// order, two writers at once, a calendar change; and `rollup rebuild` restores them.
///
/// Values are worked out by hand from ``AnalystFixtures``' rules (start at `base + at`, queued
/// 20 s later for `wait` seconds); every test also compares the views with their definitions over
/// the raw tables (``RollupStore/differences()``).
@Suite("Analyst rollups: exact under re-delivery, versions, concurrency; rebuild", .enabled(if: TestDatabase.enabled))
struct RollupTests {
    typealias Fixture = AnalystFixtures

    /// A writes to Reservations in 01:00–01:15Z and waits 45 s (the interval's longest wait).
    static let aFirst = Fixture.record(
        "A", at: 0, wait: 45, agent: Fixture.taro, talk: 100, acw: 20, attempts: 1, reason: "AGENT_DISCONNECT")
    /// A's newer version: Takeout, the izakaya, 2026-11-22T16:30Z (01:30 in Tokyo, within Sunday's
    /// hours until 02:00: Sunday's business day, a pre-holiday), answered after 12 s.
    static let aMoved = Fixture.record(
        "A", at: 401_400, store: "test-izakaya", queue: Fixture.takeout, wait: 12, agent: Fixture.taro, talk: 100,
        acw: 20, attempts: 1, reason: "AGENT_DISCONNECT")
    static let b1 = Fixture.record("B1", at: 120, wait: 3, attempts: 0, reason: "CUSTOMER_DISCONNECT")
    static let c1 = Fixture.record("C1", at: 240, next: "C2", wait: 15, attempts: 0, reason: "CUSTOMER_DISCONNECT")
    static let c2 = Fixture.record(
        "C2", at: 300, method: "CALLBACK", initial: "C1", wait: 30, agent: Fixture.hanako, talk: 120, acw: 30,
        attempts: 1, reason: "AGENT_DISCONNECT")

    static func sources(_ records: [ContactTraceRecord], offset: Int64, partition: Int32 = 0) -> [SourceRecord] {
        records.enumerated().map { index, record in
            SourceRecord(
                topic: "contact-records", partition: partition, offset: offset + Int64(index),
                key: Array(record.contactId.utf8), value: Array(record.jsonData()))
        }
    }

    static func write(_ client: PostgresClient, _ sources: [SourceRecord]) async throws {
        _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            .write(IngestDecoder().decode(sources), claims: nil)
    }

    /// One number from a query.
    static func count(_ client: PostgresClient, _ sql: String) async throws -> Int {
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
        for try await value in rows.decode(Int?.self) { return value ?? 0 }
        return 0
    }

    static func expectExact(_ client: PostgresClient, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let differences = try await RollupStore(client: client, logger: TestDatabase.logger).differences()
        #expect(
            differences == [], "the views equal their definitions over the raw tables", sourceLocation: sourceLocation)
    }

    /// Writes the contact story: A, B1 and C1; C2 (C1's callback) after them; A's newer version;
    /// then the first batch again (a re-delivery, A's old copy among it).
    static func story(_ client: PostgresClient) async throws {
        try await BusinessDayStore(client: client, logger: TestDatabase.logger)
            .replace(stores: [Fixture.izakaya], days: Fixture.izakayaDays)
        let first = sources([aFirst, b1, c1], offset: 0)
        try await write(client, first)
        try await expectExact(client)
        try await write(client, sources([c2], offset: 3))
        try await write(client, sources([aMoved], offset: 4))
        try await write(client, first)
    }

    static let queueColumns = [
        "queued", "answered", "abandoned", "callbacks_requested", "answered_within_threshold",
        "removed_within_threshold", "connect_service_level", "average_speed_of_answer_s", "average_handle_time_s",
        "abandonment_rate", "max_queued_s",
    ]

    /// After the story: Reservations at 01:00 holds B1 (abandoned after 3 s), C1 (callback after
    /// 15 s) and C2 (answered after 30 s); A has left it for Takeout at 16:30.
    static let queueExpected: AnalystTable.Rows = [
        "Reservations@11-18 01:00": [
            "queued": 3,  // B1 C1 C2 (A moved away)
            "answered": 1,  // C2
            "abandoned": 1,  // B1
            "callbacks_requested": 1,  // C1, once C2 (CALLBACK) arrived
            "answered_within_threshold": 0,  // C2 waited 30 s
            "removed_within_threshold": 2,  // B1 3 s, C1 15 s
            "connect_service_level": 0.6667,  // 2 / 3
            "average_speed_of_answer_s": 30,  // C2
            "average_handle_time_s": 150,  // C2: 120 + 30
            "abandonment_rate": 0.3333,  // 1 / 3
            "max_queued_s": 30,  // C2; A's 45 s went with A
        ],
        "Takeout@11-22 16:30": [
            "queued": 1, "answered": 1, "abandoned": 0, "callbacks_requested": 0, "answered_within_threshold": 1,
            "removed_within_threshold": 1, "connect_service_level": 1, "average_speed_of_answer_s": 12,
            "average_handle_time_s": 120,  // 100 + 20
            "abandonment_rate": 0, "max_queued_s": 12,
        ],
    ]

    static let storeColumns = ["contacts", "contact_records", "queued", "answered", "callbacks_requested"]

    static let storeExpected: AnalystTable.Rows = [
        // B1 and C1 are calls; C2 is C1's callback (not a first contact).
        "test-bistro@2026-11-18@weekday": [
            "contacts": 2, "contact_records": 3, "queued": 3, "answered": 1, "callbacks_requested": 1,
        ],
        "test-izakaya@2026-11-22@pre_holiday": [
            "contacts": 1, "contact_records": 1, "queued": 1, "answered": 1, "callbacks_requested": 0,
        ],
    ]

    static func expectStory(_ client: PostgresClient, stores: AnalystTable.Rows = storeExpected) async throws {
        let queues = try await AnalystTable.fetch(
            client, from: "queue_interval_metrics",
            key: "queue_name || '@' || to_char(interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI')",
            columns: queueColumns)
        AnalystTable.expectEqual(queues, queueExpected, "queue_interval_metrics")
        let days = try await AnalystTable.fetch(
            client, from: "store_day_metrics", key: "store_id || '@' || business_date || '@' || day_type",
            columns: storeColumns)
        AnalystTable.expectEqual(days, stores, "store_day_metrics")
        try await expectExact(client)
    }

    @Test("a newer version moves a contact, a late callback reclassifies its previous contact, re-delivery is a no-op")
    func contactStory() async throws {
        try await IngestWriterTests.migrated("rollup_story") { client in
            try await Self.story(client)
            try await Self.expectStory(client)
        }
    }

    @Test("an older version arriving after the newer one changes nothing; a next contact before its previous")
    func outOfOrder() async throws {
        try await IngestWriterTests.migrated("rollup_order") { client in
            try await BusinessDayStore(client: client, logger: TestDatabase.logger)
                .replace(stores: [Fixture.izakaya], days: Fixture.izakayaDays)
            // C2 first (C1 unknown yet), then A's newer version, then everything older in one batch.
            try await Self.write(client, Self.sources([Self.c2], offset: 10))
            try await Self.write(client, Self.sources([Self.aMoved], offset: 11))
            try await Self.write(client, Self.sources([Self.aFirst, Self.b1, Self.c1], offset: 0))
            try await Self.expectStory(client)
        }
    }

    /// `(callbacks_requested, transferred_out, transferred_out_queue)` of Reservations at 01:00.
    static func reclassified(_ client: PostgresClient) async throws -> [Int] {
        var values: [Int] = []
        for column in ["callbacks_requested", "transferred_out", "transferred_out_queue"] {
            values.append(
                try await count(
                    client,
                    "SELECT sum(\(column))::int FROM queue_interval_metrics WHERE queue_name = 'Reservations'"))
        }
        return values
    }

    @Test(
        "a next contact's version that stops being a callback un-counts its previous contact; another method never counts"
    )
    func nextContactMethodChanges() async throws {
        try await IngestWriterTests.migrated("rollup_next_method") { client in
            // C1 (01:04Z) and D1 (01:08Z) wait in Reservations and hang up, each naming a next
            // contact; D2 is an outbound call (not a callback or a transfer).
            let d1 = Fixture.record("D1", at: 500, next: "D2", wait: 8, attempts: 0, reason: "CUSTOMER_DISCONNECT")
            let d2 = Fixture.record(
                "D2", at: 600, method: "OUTBOUND", initial: "D1", queue: nil, agent: Fixture.hanako, talk: 60,
                attempts: 1, reason: "AGENT_DISCONNECT")
            // C2's later copies (same update time, later offsets) win the version guard.
            var c2Inbound = Self.c2
            c2Inbound.initiationMethod = "INBOUND"
            var c2Transfer = Self.c2
            c2Transfer.initiationMethod = "QUEUE_TRANSFER"

            try await Self.write(client, Self.sources([Self.c1, d1, d2], offset: 0))
            #expect(try await Self.reclassified(client) == [0, 0, 0])
            try await Self.expectExact(client)
            try await Self.write(client, Self.sources([Self.c2], offset: 3))
            #expect(try await Self.reclassified(client) == [1, 0, 0], "C2 is C1's callback")
            try await Self.expectExact(client)
            // Out of the compared methods: C1 is no longer a callback request.
            try await Self.write(client, Self.sources([c2Inbound], offset: 4))
            #expect(try await Self.reclassified(client) == [0, 0, 0], "C2 is an inbound call now")
            try await Self.expectExact(client)
            // Back into them: C1 was transferred to another queue.
            try await Self.write(client, Self.sources([c2Transfer], offset: 5))
            #expect(try await Self.reclassified(client) == [0, 1, 1], "C2 is C1's queue transfer")
            try await Self.expectExact(client)
        }
    }

    /// The longest wait and the queue name of Reservations at 01:00.
    static func longest(_ client: PostgresClient) async throws -> [String] {
        let rows = try await client.query(
            "SELECT queue_name, max_queued_s FROM queue_interval_metrics ORDER BY interval_start",
            logger: TestDatabase.logger)
        var result: [String] = []
        for try await (name, seconds) in rows.decode((String, Int).self) { result.append("\(name) \(seconds)") }
        return result
    }

    @Test("a bucket's longest wait and queue name stay exact as newer versions raise, repeat and lower them")
    func longestWait() async throws {
        try await IngestWriterTests.migrated("rollup_longest") { client in
            // X and Y queue for Reservations within 01:00–01:15Z. Each version of X ends later
            // than the one before (a longer talk), so the version guard takes it as newer.
            let renamed = (arn: Fixture.reservations.arn, name: "Reservations (lunch)")
            func x(_ wait: Int, talk: Int, queue: (arn: String, name: String) = Fixture.reservations)
                -> ContactTraceRecord
            {
                Fixture.record(
                    "X", at: 30, queue: queue, wait: wait, talk: talk, attempts: 0, reason: "CUSTOMER_DISCONNECT")
            }
            let y = Fixture.record("Y", at: 60, wait: 20, attempts: 0, reason: "CUSTOMER_DISCONNECT")
            let steps: [(ContactTraceRecord, expected: String)] = [
                (x(60, talk: 0), "Reservations 60"),  // raised: the added 60 covers the removed 50
                (x(55, talk: 100), "Reservations 55"),  // lowered: 60 was the longest, recomputed from X and Y
                (x(55, talk: 100), "Reservations 55"),  // the same again (a later offset): unchanged
                (x(55, talk: 150, queue: renamed), "Reservations (lunch) 55"),  // a greater name covers the old one
                (x(10, talk: 200), "Reservations 20"),  // both lowered: Y's 20 s and the old name again
            ]
            try await Self.write(client, Self.sources([x(50, talk: 0), y], offset: 0))
            #expect(try await Self.longest(client) == ["Reservations 50"])
            for (index, step) in steps.enumerated() {
                try await Self.write(client, Self.sources([step.0], offset: Int64(10 + index)))
                #expect(try await Self.longest(client) == [step.expected], "after step \(index + 1)")
                try await Self.expectExact(client)
            }
            let stale = try await Self.count(client, "SELECT count(*) FROM queue_interval_rollup WHERE max_stale")
            #expect(stale == 0)
        }
    }

    @Test("rollup rebuild restores rollups that were damaged, for a range or for everything")
    func rebuild() async throws {
        try await IngestWriterTests.migrated("rollup_rebuild") { client in
            try await Self.story(client)
            let store = RollupStore(client: client, logger: TestDatabase.logger)
            try await client.query("UPDATE store_day_rollup SET contacts = 99", logger: TestDatabase.logger)
            try await client.query("DELETE FROM queue_interval_rollup", logger: TestDatabase.logger)
            #expect(try await !store.differences().isEmpty)
            // The bistro's day only (midnight to midnight in Tokyo): the izakaya stays damaged.
            let counts = try await store.rebuild(from: "2026-11-18", to: "2026-11-19")
            #expect(counts.queueIntervals == 1)  // Reservations at 01:00
            #expect(counts.storeDays == 1)
            let damaged = try await Self.count(
                client, "SELECT contacts FROM store_day_rollup WHERE store_id = 'test-izakaya'")
            #expect(damaged == 99)
            try await store.rebuild(from: nil, to: nil)
            try await Self.expectStory(client)
        }
    }

    @Test("a whole rebuild goes month by month, reports each month and records the definitions")
    func rebuildByMonth() async throws {
        try await IngestWriterTests.migrated("rollup_rebuild_months") { client in
            try await Self.story(client)
            // A contact 40 days later: 2026-12-28T01:00Z, in December in Tokyo too.
            let december = Fixture.record(
                "M1", at: 40 * 86_400, wait: 7, agent: Fixture.hanako, talk: 30, attempts: 1, reason: "AGENT_DISCONNECT"
            )
            try await Self.write(client, Self.sources([december], offset: 10))
            try await client.query("DELETE FROM queue_interval_rollup", logger: TestDatabase.logger)
            try await client.query("UPDATE store_day_rollup SET contacts = 99", logger: TestDatabase.logger)
            try await client.query(
                "UPDATE rollup_state SET definitions_fingerprint = NULL", logger: TestDatabase.logger)
            let reported = Mutex<[String]>([])
            let counts = try await RollupStore(client: client, logger: TestDatabase.logger)
                .rebuild(from: nil, to: nil) { progress in
                    reported.withLock {
                        $0.append(
                            "\(progress.phase) \(progress.month ?? "-") \(progress.monthsDone)/\(progress.months)")
                    }
                }
            #expect(
                reported.withLock { $0 } == [
                    "rollups 2026-11 0/2", "rollups 2026-12 1/2", "latest events - 2/2", "counting - 2/2",
                ])
            // Reservations 11-18 01:00, Takeout 11-22 16:30, Reservations 12-28 01:00.
            #expect(counts.queueIntervals == 3)
            try await Self.expectExact(client)
            let recorded = try await Self.count(
                client,
                "SELECT count(*) FROM rollup_state WHERE definitions_fingerprint = rollup_definitions_fingerprint()")
            #expect(recorded == 1, "a whole rebuild records the definitions it used")
        }
    }

    @Test("a changed business day moves the contacts filed by it, in the calendar's transaction")
    func calendarChange() async throws {
        try await IngestWriterTests.migrated("rollup_calendar") { client in
            try await Self.story(client)
            // Sunday now closes at 01:00 in Tokyo: A (01:30 on the 23rd) belongs to the holiday.
            var days = Fixture.izakayaDays
            days[0].closesAt = UTCTimestamp(millisecondsSince1970: 1_795_363_200_000)
            try await BusinessDayStore(client: client, logger: TestDatabase.logger)
                .replace(stores: [Fixture.izakaya], days: days)
            var expected = Self.storeExpected
            expected["test-izakaya@2026-11-23@holiday"] = expected.removeValue(
                forKey: "test-izakaya@2026-11-22@pre_holiday")
            try await Self.expectStory(client, stores: expected)
        }
    }

    @Test("a changed threshold, even set by hand in SQL, rebuilds the queue intervals in its transaction")
    func thresholdChange() async throws {
        try await IngestWriterTests.migrated("rollup_threshold") { client in
            try await Self.story(client)
            try await client.query(
                "UPDATE analytics_setting SET value = '10' WHERE key = 'service_level_threshold_seconds'",
                logger: TestDatabase.logger)
            let removed = try await Self.count(
                client,
                "SELECT removed_within_threshold FROM queue_interval_metrics WHERE queue_name = 'Reservations'")
            #expect(removed == 1)  // B1 (3 s); C1's 15 s is over 10 s now
            try await Self.expectExact(client)
        }
    }
}
