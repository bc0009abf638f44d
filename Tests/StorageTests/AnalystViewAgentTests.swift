import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// Connect's occupancy and time in activity from agent events, against a timeline written by
/// hand: ringing, connected, on hold, after-contact work, a missed offer, an error, a custom
/// status with an outbound call in it, and offline, all in one 15-minute interval.
@Suite("SQL for analysts: Connect's agent occupancy", .enabled(if: TestDatabase.enabled))
struct AnalystViewAgentTests {
    static let base = AnalystFixtures.base
    static let arn = "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/hanako"

    static func event(_ id: Int, at seconds: Int64, _ status: String, contact: AgentContact.State?) -> AgentEvent {
        let type: AgentStatus.Kind =
            switch status {
            case "Available": .routable
            case "Offline": .offline
            default: .custom
            }
        return AgentEvent(
            agentArn: arn,
            eventId: "ev-\(id)",
            eventTimestamp: base.adding(seconds: seconds),
            eventType: .stateChange,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(name: status, type: type, startTimestamp: nil),
                configuration: AgentConfiguration(username: "hanako"),
                contacts: contact.map {
                    [AgentContact(contactId: "c-\(id)", state: $0, stateStartTimestamp: base.adding(seconds: seconds))]
                } ?? []
            )
        )
    }

    /// Seconds from the interval's start; each state lasts until the next event.
    static let timeline = [
        event(1, at: 0, "Available", contact: nil),  // available 0–60
        event(2, at: 60, "Available", contact: .incoming),  // connecting 60–70
        event(3, at: 70, "Available", contact: .connecting),  // connecting 70–75
        event(4, at: 75, "Available", contact: .connected),  // on contact 75–255
        event(5, at: 255, "Available", contact: .connectedOnHold),  // on contact (hold) 255–285
        event(6, at: 285, "Available", contact: .ended),  // after-contact work 285–345
        event(7, at: 345, "Available", contact: nil),  // available 345–400
        event(8, at: 400, "Available", contact: .incoming),  // connecting 400–420
        event(9, at: 420, "Available", contact: .missed),  // error (missed) 420–480
        event(10, at: 480, "Available", contact: nil),  // available 480–540
        event(11, at: 540, "Available", contact: .error),  // error 540–560
        event(12, at: 560, "Lunch", contact: nil),  // custom status 560–700
        event(13, at: 700, "Lunch", contact: .connected),  // on contact in a custom status 700–760
        event(14, at: 760, "Lunch", contact: .ended),  // after-contact work in a custom status 760–780
        event(15, at: 780, "Offline", contact: nil),  // offline 780–900
        event(16, at: 900, "Offline", contact: nil),
    ]

    @Test("occupancy = agent on contact / (on contact + idle); connecting in neither, error idle")
    func occupancy() async throws {
        try await IngestWriterTests.migrated("analyst_agent") { client in
            let sources = Self.timeline.enumerated().map { offset, event in
                SourceRecord(
                    topic: "agent-events", partition: 0, offset: Int64(offset), key: nil, value: Array(event.jsonData())
                )
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            let actual = try await AnalystTable.fetch(
                client, from: "agent_interval_metrics",
                key: "username || '@' || to_char(interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI')",
                columns: Array(Self.expected.values.first!.keys),
                where: "interval_start = to_timestamp(\(Self.base.millisecondsSince1970 / 1000))")
            AnalystTable.expectEqual(actual, Self.expected, "agent_interval_metrics")
        }
    }

    static let expected: AnalystTable.Rows = [
        "hanako@11-18 01:00": [
            "available_s": 175,  // 60 + 55 + 60
            "connecting_s": 35,  // 10 + 5 + 20 (ringing): in neither side of occupancy
            "on_contact_s": 270,  // 180 + 30 on hold + 60 in Lunch
            "after_contact_work_s": 80,  // 60 + 20 in Lunch
            "error_s": 80,  // 60 missed + 20 error: Connect's "Error status time"
            "custom_status_s": 140,
            "offline_s": 120,
            "agent_on_contact_s": 270,  // 210 + 60 while Available (time on contact in Lunch is not counted)
            "agent_idle_s": 255,  // 175 available + 80 error
            "occupancy": 0.5143,  // 270 / (270 + 255); the old formula gave (305 + 80) / (305 + 80 + 175) = 0.6875
        ]
    ]

    @Test("the contact state of the snapshot follows Connect's precedence, also for rows stored before")
    func contactState() async throws {
        try await IngestWriterTests.migrated("analyst_contact_state") { client in
            let sources = Self.timeline.enumerated().map { offset, event in
                SourceRecord(
                    topic: "agent-events", partition: 0, offset: Int64(offset), key: nil, value: Array(event.jsonData())
                )
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            // The migration's backfill, run again over the stored raw JSON, gives the writer's values.
            let connectColumns = try #require(SwitchboardSchema.migrations.first { $0.version == 4 })
            let backfill = try #require(connectColumns.statements.first { $0.hasPrefix("UPDATE agent_event") })
            let before = try await Self.states(client)
            try await client.query(PostgresQuery(unsafeSQL: backfill), logger: TestDatabase.logger)
            #expect(try await Self.states(client) == before)
            #expect(
                before == [
                    nil, "CONNECTING", "CONNECTING", "CONNECTED", "CONNECTED", "ENDED", nil, "CONNECTING", "MISSED",
                    nil,
                    "ERROR", nil, "CONNECTED", "ENDED", nil, nil,
                ])
        }
    }

    static func states(_ client: PostgresClient) async throws -> [String?] {
        let rows = try await client.query(
            "SELECT contact_state FROM agent_event ORDER BY event_ts", logger: TestDatabase.logger)
        var states: [String?] = []
        for try await state in rows.decode(String?.self) { states.append(state) }
        return states
    }
}
