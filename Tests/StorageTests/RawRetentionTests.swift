import ContactCenter
import Foundation
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// The raw tables' monthly partitions (migration 10): created ahead and for every month written,
/// retention dropping whole months while the rollups keep them, rows before the horizon refused
/// into `dead_letter`, and the conversion of a database that has rows.
@Suite("Raw tables by month: partitions, retention, the horizon")
struct RawRetentionTests {
    /// The first instant of the UTC month `monthsBefore` months before the current one, plus
    /// `days` days and `hours` hours.
    static func month(_ monthsBefore: Int, day: Int = 10, hour: Int = 3) -> UTCTimestamp {
        let now = UTCTimestamp(Date()).monthStart
        let civil = CivilDays.civil(dayNumber: Int(now.millisecondsSince1970 / 86_400_000))
        let index = civil.year * 12 + (civil.month - 1) - monthsBefore
        let first = CivilDays.dayNumber(year: index / 12, month: index % 12 + 1, day: day)
        return UTCTimestamp(millisecondsSince1970: Int64(first) * 86_400_000 + Int64(hour) * 3_600_000)
    }

    /// A fixture contact moved to `start`, every time of it shifted alike.
    static func contact(_ fixtures: inout TrafficFixtures, index: Int, at start: UTCTimestamp, version: Int = 0)
        -> ContactTraceRecord
    {
        var record = fixtures.contactRecord(index: index, version: version, answered: true)
        let delta = start.millisecondsSince1970 - record.initiationTimestamp!.millisecondsSince1970
        func shift(_ time: UTCTimestamp?) -> UTCTimestamp? { time?.adding(milliseconds: delta) }
        record.initiationTimestamp = shift(record.initiationTimestamp)
        record.connectedToSystemTimestamp = shift(record.connectedToSystemTimestamp)
        record.disconnectTimestamp = shift(record.disconnectTimestamp)
        record.lastUpdateTimestamp = record.lastUpdateTimestamp.adding(milliseconds: delta)
        if var queue = record.queue {
            queue.enqueueTimestamp = shift(queue.enqueueTimestamp)
            queue.dequeueTimestamp = shift(queue.dequeueTimestamp)
            record.queue = queue
        }
        if var agent = record.agent {
            agent.connectedToAgentTimestamp = shift(agent.connectedToAgentTimestamp)
            agent.afterContactWorkStartTimestamp = shift(agent.afterContactWorkStartTimestamp)
            agent.afterContactWorkEndTimestamp = shift(agent.afterContactWorkEndTimestamp)
            record.agent = agent
        }
        return record
    }

    /// A fixture agent event moved to `time`.
    static func agentEvent(_ fixtures: inout TrafficFixtures, index: Int, at time: UTCTimestamp) -> AgentEvent {
        var event = fixtures.agentEvent(index: index)
        event.eventTimestamp = time
        event.currentSnapshot?.status?.startTimestamp = time
        return event
    }

    /// The sources of `contacts`, `agents` and `contacts events` from `offset` on.
    static func sources(
        contacts: [ContactTraceRecord] = [], agents: [AgentEvent] = [], contactEvents: [ContactEvent] = [],
        offset: Int64 = 0
    ) -> [SourceRecord] {
        var sources: [SourceRecord] = []
        var next = offset
        func add(_ topic: String, _ key: String, _ value: Data) {
            sources.append(
                SourceRecord(topic: topic, partition: 0, offset: next, key: Array(key.utf8), value: Array(value)))
            next += 1
        }
        for record in contacts { add("contact-records", record.contactId, record.jsonData()) }
        for event in agents { add("agent-events", event.agentArn, event.jsonData()) }
        for event in contactEvents { add("contact-events", event.contactId, event.jsonData()) }
        return sources
    }

    static func strings(_ client: PostgresClient, _ sql: String) async throws -> [String] {
        var values: [String] = []
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            .decode(String.self)
        {
            values.append(value)
        }
        return values
    }

    static func count(_ client: PostgresClient, _ sql: String) async throws -> Int {
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            .decode(Int.self)
        {
            return value
        }
        return -1
    }

    /// Every rollup row, as text, sorted: what retention must leave alone.
    static func rollups(_ client: PostgresClient) async throws -> [String] {
        try await strings(
            client,
            """
            SELECT x FROM (
                SELECT 'q ' || r::text AS x FROM queue_interval_rollup r
                UNION ALL SELECT 's ' || r::text FROM store_day_rollup r
                UNION ALL SELECT 'a ' || r::text FROM agent_status_rollup r
                UNION ALL SELECT 'i ' || r::text FROM agent_interval_rollup r
            ) AS u ORDER BY x
            """)
    }

    @Test("a UTC month's first instant, across month, year and leap-day boundaries and before 1970")
    func monthStart() {
        func at(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }
        #expect(at("2026-11-30T23:59:59.999Z").monthStart == at("2026-11-01T00:00:00Z"))
        #expect(at("2026-12-01T00:00:00Z").monthStart == at("2026-12-01T00:00:00Z"))
        #expect(at("2027-01-01T00:00:00.001Z").monthStart == at("2027-01-01T00:00:00Z"))
        #expect(at("2024-02-29T12:00:00Z").monthStart == at("2024-02-01T00:00:00Z"))
        #expect(at("1969-12-31T23:00:00Z").monthStart == at("1969-12-01T00:00:00Z"))
    }

    @Test("each row lands in its UTC month's partition, created ahead or when first written; the default stays empty")
    func partitionsPerMonth() async throws {
        do {
            try await IngestWriterTests.migrated("raw_partitions") { client in
                let now = UTCTimestamp(Date()).monthStart
                var fixtures = TrafficFixtures(seed: 3)
                // Migration 10 created the current month and the two after it.
                let ahead = try await Self.strings(
                    client,
                    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                        + "WHERE i.inhparent = 'contact_record'::regclass ORDER BY 1")
                #expect(ahead.count == 4, "\(ahead)")
                #expect(ahead.contains("contact_record_default"))
                #expect(ahead.contains("contact_record" + Self.suffix(now)))
                #expect(ahead.contains("contact_record" + Self.suffix(Self.month(-2, day: 1, hour: 0))))
                // History of last year and of 2 months ago, the last hour of a month and the first
                // of the next, and a CTR without InitiationTimestamp (filed by its last update).
                let lastHour = Self.month(6, day: 1, hour: 0).adding(seconds: -1800)
                var noInitiation = Self.contact(&fixtures, index: 4, at: Self.month(2))
                noInitiation.initiationTimestamp = nil
                let contacts = [
                    Self.contact(&fixtures, index: 1, at: Self.month(12)),
                    Self.contact(&fixtures, index: 2, at: lastHour),
                    Self.contact(&fixtures, index: 3, at: Self.month(6, day: 1, hour: 0)),
                    noInitiation,
                ]
                let agents = [Self.agentEvent(&fixtures, index: 1, at: Self.month(12))]
                var event = fixtures.contactEvent(index: 1)
                event.time = Self.month(9)
                let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                let summary = try await writer.write(
                    IngestDecoder().decode(Self.sources(contacts: contacts, agents: agents, contactEvents: [event])),
                    claims: nil)
                #expect(summary.contactRecordsWritten == 4)
                let placed = try await Self.strings(
                    client, "SELECT contact_id || ' ' || tableoid::regclass::text FROM contact_record ORDER BY 1")
                #expect(
                    placed == [
                        contacts[0].contactId + " contact_record" + Self.suffix(Self.month(12)),
                        contacts[1].contactId + " contact_record" + Self.suffix(Self.month(7)),
                        contacts[2].contactId + " contact_record" + Self.suffix(Self.month(6)),
                        contacts[3].contactId + " contact_record" + Self.suffix(noInitiation.lastUpdateTimestamp),
                    ])
                #expect(
                    try await Self.strings(client, "SELECT tableoid::regclass::text FROM agent_event")
                        == ["agent_event" + Self.suffix(Self.month(12))])
                #expect(
                    try await Self.strings(client, "SELECT tableoid::regclass::text FROM contact_event")
                        == ["contact_event" + Self.suffix(Self.month(9))])
                #expect(try await RollupStore(client: client, logger: TestDatabase.logger).differences() == [])
                // Rows that reached a default partition (written by hand before their month had a
                // partition) move out when it is created.
                let older = Self.month(20)
                _ = try await client.query(
                    """
                    INSERT INTO agent_event (event_id, agent_arn, event_type, event_ts, activity, raw, source_partition,
                                             source_offset)
                    VALUES ('by-hand', 'a', 'STATE_CHANGE', \(Date(timeIntervalSince1970: Double(older.millisecondsSince1970) / 1000)),
                            'available', '{}', 0, 0)
                    """, logger: TestDatabase.logger)
                #expect(try await Self.count(client, "SELECT count(*)::int8 FROM agent_event_default") == 1)
                #expect(
                    try await RawRetentionStore(client: client, logger: TestDatabase.logger).ensurePartitions() == 1)
                #expect(try await Self.count(client, "SELECT count(*)::int8 FROM agent_event_default") == 0)
                #expect(
                    try await Self.strings(
                        client, "SELECT tableoid::regclass::text FROM agent_event WHERE event_id = 'by-hand'")
                        == ["agent_event" + Self.suffix(older)])
                #expect(try await Self.count(client, "SELECT count(*)::int8 FROM contact_record_default") == 0)
            }
        } catch { Issue.record("\(String(reflecting: error))") }
    }

    static func suffix(_ time: UTCTimestamp) -> String {
        let civil = CivilDays.civil(dayNumber: Int(time.monthStart.millisecondsSince1970 / 86_400_000))
        return String(format: "_y%04dm%02d", civil.year, civil.month)
    }

    @Test("retention drops whole months and keeps the rollups; later rows before the horizon go to dead_letter")
    func retention() async throws {
        try await IngestWriterTests.migrated("raw_retention") { client in
            var fixtures = TrafficFixtures(seed: 4)
            let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            let store = RawRetentionStore(client: client, logger: TestDatabase.logger)
            // Months 15, 14, 13 and 2 before the current one.
            let old = (0..<6).map {
                Self.contact(&fixtures, index: $0, at: Self.month(15).adding(seconds: Int64($0) * 700))
            }
            let edge = (6..<9).map {
                Self.contact(&fixtures, index: $0, at: Self.month(14).adding(seconds: Int64($0) * 700))
            }
            let kept = (9..<12).map {
                Self.contact(&fixtures, index: $0, at: Self.month(13).adding(seconds: Int64($0) * 700))
            }
            let recent = (12..<15).map {
                Self.contact(&fixtures, index: $0, at: Self.month(2).adding(seconds: Int64($0) * 700))
            }
            let agents =
                (0..<8).map {
                    Self.agentEvent(&fixtures, index: $0, at: Self.month(15).adding(seconds: Int64($0) * 300))
                }
                + (8..<12).map {
                    Self.agentEvent(&fixtures, index: $0, at: Self.month(2).adding(seconds: Int64($0) * 300))
                }
            var event = fixtures.contactEvent(index: 2)
            event.time = Self.month(14)
            _ = try await writer.write(
                IngestDecoder().decode(
                    Self.sources(contacts: old + edge + kept + recent, agents: agents, contactEvents: [event])),
                claims: nil)
            let rollupsBefore = try await Self.rollups(client)
            #expect(rollupsBefore.count > 20)
            #expect(try await Self.count(client, "SELECT count(*)::int8 FROM contact_record") == 15)

            // A dry run drops nothing.
            let wouldDrop = try await store.apply(keepMonths: 13, dryRun: true)
            // A batch's months get partitions in all three tables.
            var expectedDrops: Set<String> = []
            for table in ["contact_record", "agent_event", "contact_event"] {
                expectedDrops.insert(table + Self.suffix(Self.month(15)))
                expectedDrops.insert(table + Self.suffix(Self.month(14)))
            }
            #expect(Set(wouldDrop.map(\.name)) == expectedDrops)
            #expect(try await Self.count(client, "SELECT count(*)::int8 FROM contact_record") == 15)
            #expect(try await store.horizon() == nil)

            let dropped = try await store.apply(keepMonths: 13, dryRun: false)
            #expect(Set(dropped.map(\.name)) == Set(wouldDrop.map(\.name)))
            let horizon = Self.month(13, day: 1, hour: 0)
            #expect(try await store.horizon().map { UTCTimestamp($0) } == horizon)
            #expect(try await Self.count(client, "SELECT count(*)::int8 FROM contact_record") == 6)
            #expect(try await Self.count(client, "SELECT count(*)::int8 FROM agent_event") == 4)
            #expect(try await Self.count(client, "SELECT count(*)::int8 FROM contact_event") == 0)
            #expect(try await Self.rollups(client) == rollupsBefore, "retention leaves the rollups alone")

            // Later: a newer version of a dropped contact, an agent event and a contact event
            // before the horizon, beside a newer version of a kept contact and a new one.
            let late = Self.contact(&fixtures, index: 1, at: old[1].initiationTimestamp!, version: 1)
            let lateAgent = Self.agentEvent(&fixtures, index: 20, at: Self.month(15).adding(seconds: 100))
            var lateEvent = fixtures.contactEvent(index: 7)
            lateEvent.time = Self.month(14)
            let newer = Self.contact(&fixtures, index: 10, at: kept[1].initiationTimestamp!, version: 1)
            let fresh = Self.contact(&fixtures, index: 30, at: Self.month(1))
            let summary = try await writer.write(
                IngestDecoder().decode(
                    Self.sources(
                        contacts: [late, newer, fresh], agents: [lateAgent], contactEvents: [lateEvent], offset: 100)),
                claims: nil)
            #expect(summary.rowsBeforeRetention == 3)
            #expect(summary.contactRecordsWritten == 2)
            #expect(summary.agentEventsWritten == 0)
            let letters = try await Self.strings(
                client, "SELECT topic || ' ' || \"offset\" || ' ' || error FROM dead_letter ORDER BY \"offset\"")
            #expect(letters.count == 3)
            for letter in letters { #expect(letter.contains("before the retention horizon"), "\(letter)") }
            #expect(
                letters.first?.hasPrefix("contact-records 100 before_retention: InitiationTimestamp") == true,
                "\(letters)")
            let stored = try await Self.strings(
                client, "SELECT convert_from(value, 'UTF8') FROM dead_letter WHERE \"offset\" = 100")
            #expect(stored == [String(decoding: late.jsonData(), as: UTF8.self)], "the record as received")
            // No partition came back for the dropped months; the rollups there are unchanged.
            #expect(
                try await Self.count(
                    client,
                    "SELECT count(*)::int8 FROM pg_class WHERE relname = 'contact_record\(Self.suffix(Self.month(15)))'"
                )
                    == 0)
            #expect(rollupsBefore.contains { Self.isBefore($0, horizon) })
            // A full rebuild stops two days after the horizon: the dropped months keep their figures.
            _ = try await RollupStore(client: client, logger: TestDatabase.logger).rebuild(from: nil, to: nil)
            let rebuilt = try await Self.rollups(client)
            for row in rollupsBefore where Self.isBefore(row, horizon) {
                #expect(rebuilt.contains(row), "kept through the rebuild: \(row)")
            }
            #expect(try await RollupStore(client: client, logger: TestDatabase.logger).differences() == [])
            // The horizon never moves back.
            #expect(try await store.apply(keepMonths: 30, dryRun: false).isEmpty)
            #expect(try await store.horizon().map { UTCTimestamp($0) } == horizon)
            await #expect(throws: (any Error).self) { try await store.apply(keepMonths: 0, dryRun: false) }
        }
    }

    @Test("retention waits for a write that has read the horizon, and the next write sees the new one")
    func retentionWaitsForWriters() async throws {
        try await IngestWriterTests.migrated("raw_retention_lock") { client in
            let store = RawRetentionStore(client: client, logger: TestDatabase.logger)
            let (commit, release) = AsyncStream.makeStream(of: Void.self)
            let (begun, began) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // A writer's transaction, between reading the horizon and committing.
                group.addTask {
                    try await client.withTransaction(logger: TestDatabase.logger) { connection in
                        _ = try await connection.query("SELECT ingest_write_begin()", logger: TestDatabase.logger)
                        began.yield()
                        for await _ in commit { break }
                    }
                }
                for await _ in begun { break }
                group.addTask { _ = try await store.apply(keepMonths: 13, dryRun: false) }
                // Retention waits on the horizon lock (polled: the wait is a state, not a time).
                // Until it waits, or (the defect) has moved the horizon without waiting.
                var waiting = 0
                var moved = false
                while waiting == 0 && !moved {
                    waiting = try await Self.count(
                        client,
                        "SELECT count(*)::int8 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                            + "AND objid = 1398227528")
                    moved = try await store.horizon() != nil
                }
                #expect(waiting == 1, "retention waits for the write in flight")
                #expect(!moved, "nothing moved while the write is in flight")
                release.yield()
                release.finish()
                try await group.waitForAll()
            }
            #expect(try await store.horizon().map { UTCTimestamp($0) } == Self.month(13, day: 1, hour: 0))
        }
    }

    /// Whether a rollup row (as text) is of a period before `horizon`: its first timestamp or date.
    static func isBefore(_ row: String, _ horizon: UTCTimestamp) -> Bool {
        let civil = CivilDays.civil(dayNumber: Int(horizon.millisecondsSince1970 / 86_400_000))
        let day = String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
        guard let match = row.firstMatch(of: /\d{4}-\d{2}-\d{2}/) else { return false }
        return String(row[match.range]) < day
    }

    @Test("migration 10 converts tables that have rows: kept in their months, the views re-bound, the comments kept")
    func conversion() async throws {
        try await TestDatabase.withFreshDatabase("raw_conversion") { client, _ in
            let migrator = Migrator(client: client, logger: TestDatabase.logger)
            try await migrator.migrate(SwitchboardSchema.migrations.filter { $0.version < 10 })
            _ = try await client.query(
                """
                INSERT INTO contact_record (contact_id, initiation_ts, enqueue_ts, queue_name, queue_arn, store_id, raw,
                                            last_update_ts, source_partition, source_offset)
                VALUES ('c-1', '2025-03-31 23:30:00+00', '2025-03-31 23:30:20+00', 'Q', 'arn:q', 's', '{"a": 1}',
                        '2025-04-01 00:10:00+00', 0, 1),
                       ('c-2', NULL, NULL, NULL, NULL, NULL, '{}', '2025-05-02 00:00:00+00', 0, 2),
                       ('c-3', '2026-01-15 10:00:00+00', NULL, NULL, NULL, 's', '{}', '2026-01-15 10:05:00+00', 0, 3)
                """, logger: TestDatabase.logger)
            _ = try await client.query(
                """
                INSERT INTO agent_event (event_id, agent_arn, event_type, event_ts, activity, raw, source_partition,
                                         source_offset)
                VALUES ('e-1', 'a', 'LOGIN', '2025-03-31 23:59:59+00', 'available', '{}', 0, 1)
                """, logger: TestDatabase.logger)
            let viewBefore = try await Self.strings(
                client, "SELECT contact_id || ' ' || coalesce(queue_name, '-') FROM contact_record_analyst ORDER BY 1")
            try await TestDatabase.migrate(client)
            #expect(
                try await Self.strings(
                    client, "SELECT contact_id || ' ' || tableoid::regclass::text FROM contact_record ORDER BY 1")
                    == [
                        "c-1 contact_record_y2025m03", "c-2 contact_record_y2025m05", "c-3 contact_record_y2026m01",
                    ])
            #expect(
                try await Self.strings(client, "SELECT tableoid::regclass::text FROM agent_event")
                    == ["agent_event_y2025m03"])
            #expect(
                try await Self.strings(
                    client,
                    "SELECT contact_id || ' ' || coalesce(queue_name, '-') FROM contact_record_analyst ORDER BY 1")
                    == viewBefore)
            #expect(viewBefore.count == 3)
            #expect(
                try await Self.count(client, "SELECT count(*)::int8 FROM pg_class WHERE relname LIKE '%_unpartitioned'")
                    == 0)
            #expect(
                try await Self.strings(client, "SELECT obj_description('contact_record'::regclass, 'pg_class')")
                    .first?.hasPrefix("One row per Amazon Connect ContactId") == true)
            #expect(
                try await Self.strings(
                    client,
                    "SELECT has_table_privilege('switchboard_analyst', 'contact_record_analyst', 'SELECT')::text")
                    == ["true"])
            #expect(
                try await Self.strings(client, "SELECT relkind::text FROM pg_class WHERE relname = 'contact_record'")
                    == ["p"])
            // Rows written by hand reach the rollups through a rebuild, over the converted tables.
            let rollups = RollupStore(client: client, logger: TestDatabase.logger)
            #expect(try await rollups.rebuild(from: nil, to: nil).queueIntervals == 1)
            #expect(try await rollups.differences() == [])
        }
    }
}
