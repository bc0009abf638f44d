import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

@Suite("SQL for analysts", .enabled(if: TestDatabase.enabled))
struct AnalystViewTests {
    @Test("queue interval metrics equal an independent computation over the same records")
    func queueIntervalMetrics() async throws {
        var fixtures = TrafficFixtures(seed: 99)
        var records: [ContactTraceRecord] = []
        for index in 0..<1_500 {
            records.append(fixtures.contactRecord(index: index))
            if index % 7 == 0 {
                records.append(fixtures.contactRecord(index: index, version: 1, answered: index % 2 == 0))
            }
        }
        let produced = records
        let expected = QueueIntervalMetrics.compute(from: produced)
        try await IngestWriterTests.migrated("analyst_queue") { client in
            let sources = produced.enumerated().map { offset, record in
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: Int64(offset), key: nil,
                    value: Array(record.jsonData()))
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            let rows = try await client.query(
                """
                SELECT queue, (extract(epoch FROM interval_start))::bigint, queued, answered, abandoned,
                       answered_within_threshold, service_level::float8, average_speed_of_answer_s::float8,
                       average_handle_time_s::float8, abandonment_rate::float8, max_queued_s
                FROM queue_interval_metrics
                """,
                logger: TestDatabase.logger
            )
            var actual: [String: (Int, Int, Int, Int, Double, Double?, Double?, Double, Int?)] = [:]
            for try await row in rows.decode(
                (String, Int64, Int, Int, Int, Int, Double, Double?, Double?, Double, Int?).self
            ) {
                actual["\(row.0)@\(row.1)"] = (row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10)
            }
            #expect(actual.count == expected.count)
            for metrics in expected {
                let key = "\(metrics.queue)@\(metrics.intervalStart.millisecondsSince1970 / 1000)"
                guard let row = actual[key] else {
                    Issue.record("missing interval \(key)")
                    continue
                }
                #expect(row.0 == metrics.queued, "\(key) queued")
                #expect(row.1 == metrics.answered, "\(key) answered")
                #expect(row.2 == metrics.abandoned, "\(key) abandoned")
                #expect(row.3 == metrics.answeredWithinThreshold, "\(key) within threshold")
                #expect(abs(row.4 - (metrics.serviceLevel ?? -1)) < 0.0001, "\(key) service level")
                if let asa = metrics.averageSpeedOfAnswerSeconds {
                    #expect(abs((row.5 ?? -1) - asa) < 0.01, "\(key) ASA")
                }
                if let aht = metrics.averageHandleTimeSeconds { #expect(abs((row.6 ?? -1) - aht) < 0.01, "\(key) AHT") }
                #expect(abs(row.7 - (metrics.abandonmentRate ?? -1)) < 0.0001, "\(key) abandonment")
                #expect(row.8 == metrics.maxQueuedTimeSeconds, "\(key) max queued")
            }
        }
    }

    @Test("occupancy and time in status from agent events, per 15-minute interval")
    func agentOccupancy() async throws {
        try await IngestWriterTests.migrated("analyst_agent") { client in
            // The start of a 15-minute interval.
            let base = UTCTimestamp(millisecondsSince1970: 1_795_000_500_000 - 1_795_000_500_000 % 900_000)
            let arn = "arn:aws:connect:ap-northeast-1:1:instance/i/agent/a-1"
            func event(_ id: Int, at seconds: Int64, _ status: AgentStatus.Kind, contact: AgentContact.State?)
                -> AgentEvent
            {
                AgentEvent(
                    agentArn: arn,
                    eventId: "ev-\(id)",
                    eventTimestamp: base.adding(seconds: seconds),
                    eventType: .stateChange,
                    currentSnapshot: AgentSnapshot(
                        status: AgentStatus(
                            name: status == .routable ? "Available" : "Lunch", type: status, startTimestamp: nil),
                        configuration: AgentConfiguration(username: "hanako"),
                        contacts: contact.map {
                            [
                                AgentContact(
                                    contactId: "c", state: $0, stateStartTimestamp: base.adding(seconds: seconds))
                            ]
                        } ?? []
                    )
                )
            }
            // available 0–120 s, on contact 120–420 s, ACW 420–480 s, available 480–600 s, lunch 600–900 s.
            let events = [
                event(1, at: 0, .routable, contact: nil),
                event(2, at: 120, .routable, contact: .connected),
                event(3, at: 420, .routable, contact: .ended),
                event(4, at: 480, .routable, contact: nil),
                event(5, at: 600, .custom, contact: nil),
                event(6, at: 900, .offline, contact: nil),
            ]
            let sources = events.enumerated().map { offset, event in
                SourceRecord(
                    topic: "agent-events", partition: 0, offset: Int64(offset), key: nil, value: Array(event.jsonData())
                )
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            let rows = try await client.query(
                """
                SELECT available_s::float8, on_contact_s::float8, after_contact_work_s::float8, custom_status_s::float8,
                       occupancy::float8
                FROM agent_interval_metrics WHERE interval_start = to_timestamp(\(base.millisecondsSince1970 / 1000))
                """,
                logger: TestDatabase.logger
            )
            var found = false
            for try await (available, onContact, acw, custom, occupancy) in rows.decode(
                (Double, Double, Double, Double, Double?).self)
            {
                found = true
                #expect(available == 240)
                #expect(onContact == 300)
                #expect(acw == 60)
                #expect(custom == 300)
                // (300 + 60) / (300 + 60 + 240)
                #expect(abs((occupancy ?? 0) - 0.6) < 0.0001)
            }
            #expect(found)
        }
    }

    @Test("the analyst role reads the views, not the raw tables, and sees phone numbers masked")
    func analystRole() async throws {
        try await IngestWriterTests.migrated("analyst_role") { client in
            var fixtures = TrafficFixtures(seed: 5)
            let record = fixtures.contactRecord(index: 42)
            let source = SourceRecord(
                topic: "contact-records", partition: 0, offset: 0, key: nil, value: Array(record.jsonData()))
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode([source]), claims: nil)
            var analyst = try TestDatabase.configuration()
            analyst.username = "switchboard_analyst"
            analyst.database = "t_analyst_role"
            try await TestDatabase.withClient(analyst) { analystClient async throws in
                let rows = try await analystClient.query(
                    "SELECT customer_number FROM contact_record_analyst",
                    logger: TestDatabase.logger
                )
                for try await number in rows.decode(String?.self) {
                    let original = record.customerEndpoint!.address!
                    #expect(number != original)
                    #expect(number == "+81" + String(repeating: "*", count: original.count - 7) + original.suffix(4))
                }
                await #expect(throws: PSQLError.self) {
                    try await analystClient.query("SELECT count(*) FROM contact_record", logger: TestDatabase.logger)
                }
                await #expect(throws: PSQLError.self) {
                    try await analystClient.query("SELECT count(*) FROM dead_letter", logger: TestDatabase.logger)
                }
                let metrics = try await analystClient.query(
                    "SELECT count(*) FROM queue_interval_metrics", logger: TestDatabase.logger)
                for try await count in metrics.decode(Int.self) { #expect(count == 1) }
            }
        }
    }
}
