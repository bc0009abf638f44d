import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// The console (the floor reducer) and the analyst views fed the same contacts and agent events
/// must agree on each agent's activity (Connect's Agent Activity) and on each queue's contacts
/// queued, answered and abandoned (Connect's "Contacts abandoned"). The expected values are
/// worked out by hand from Connect's definitions; both sides are compared with them and with each
/// other.
@Suite("Console and SQL agree", .enabled(if: TestDatabase.enabled))
struct ConsoleAgreementTests {
    static let base = AnalystFixtures.base
    static let hanako = AnalystFixtures.hanako
    static let taro = AnalystFixtures.taro

    /// Seven contacts in Reservations and Takeout, all queued in 01:00–01:15Z (see
    /// ``AnalystFixtures/record(_:at:method:initial:next:store:queue:wait:agent:talk:hold:acw:attempts:reason:transferredTo:)``
    /// for the timing).
    static let records: [ContactTraceRecord] = [
        // K1: answered after 10 s.
        AnalystFixtures.record(
            "K1", at: 0, wait: 10, agent: hanako, talk: 60, attempts: 1, reason: "AGENT_DISCONNECT"),
        // K2: the caller hung up after 25 s in queue: abandoned.
        AnalystFixtures.record("K2", at: 30, wait: 25, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        // K3: asked for a callback (K4), then hung up: not abandoned.
        AnalystFixtures.record("K3", at: 60, next: "K4", wait: 15, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        // K4: the callback, answered.
        AnalystFixtures.record(
            "K4", at: 120, method: "CALLBACK", initial: "K3", wait: 30, agent: taro, talk: 40, attempts: 1,
            reason: "CUSTOMER_DISCONNECT"),
        // K5: moved by the queue flow to Takeout (K6): not abandoned.
        AnalystFixtures.record("K5", at: 150, next: "K6", wait: 20, attempts: 0, reason: nil),
        // K6: the queue transfer, abandoned after 8 s in Takeout.
        AnalystFixtures.record(
            "K6", at: 200, method: "QUEUE_TRANSFER", initial: "K5", queue: AnalystFixtures.takeout, wait: 8,
            attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        // K7: offered to an agent who missed it, then the caller hung up after 40 s: abandoned.
        AnalystFixtures.record("K7", at: 240, wait: 40, attempts: 1, reason: "CUSTOMER_DISCONNECT"),
    ]

    /// Connect's queue counts, by hand: (queued, answered, abandoned).
    static let expectedQueues: [String: [Int]] = [
        AnalystFixtures.reservations.arn: [6, 2, 2],  // K1 K2 K3 K4 K5 K7; K1 K4; K2 K7
        AnalystFixtures.takeout.arn: [1, 0, 1],  // K6
    ]

    /// The contact events Connect sends for each record: initiated, queued, connected to an
    /// agent, disconnected, with the record's own timestamps.
    static var contactEvents: [ContactEvent] {
        records.flatMap { record -> [ContactEvent] in
            let queue = record.queue.map {
                ContactEvent.QueueInfo(queueArn: $0.arn, enqueueTimestamp: $0.enqueueTimestamp)
            }
            let agent = record.agent.map {
                ContactEvent.AgentInfo(agentArn: $0.arn, connectedToAgentTimestamp: $0.connectedToAgentTimestamp)
            }
            func event(_ type: ContactEvent.EventType, at time: UTCTimestamp?) -> ContactEvent? {
                guard let time else { return nil }
                return ContactEvent(
                    id: "\(record.contactId)-\(type.rawValue)", time: time, eventType: type,
                    contactId: record.contactId, initialContactId: record.initialContactId,
                    previousContactId: record.previousContactId, initiationMethod: record.initiationMethod,
                    initiationTimestamp: record.initiationTimestamp,
                    disconnectTimestamp: type == .disconnected ? record.disconnectTimestamp : nil,
                    queueInfo: type == .initiated ? nil : queue,
                    agentInfo: type == .connectedToAgent || type == .disconnected ? agent : nil)
            }
            return [
                event(.initiated, at: record.initiationTimestamp),
                event(.queued, at: record.queue?.enqueueTimestamp),
                event(.connectedToAgent, at: record.agent?.connectedToAgentTimestamp),
                event(.disconnected, at: record.disconnectTimestamp),
            ].compactMap { $0 }
        }
    }

    static func arn(_ name: String) -> String {
        "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/\(name)"
    }

    /// Each agent's last event at 01:10Z, and the activity Connect's precedence gives it: error,
    /// missed and rejected contacts first, then connected or on hold, after-contact work, incoming
    /// or connecting; then the status.
    static let agents: [(event: AgentEvent, expected: AgentActivity)] = [
        (agentEvent("available", "Available", .routable, []), .available),
        (agentEvent("ringing", "Available", .routable, [.incoming]), .connecting),
        (agentEvent("talking", "Available", .routable, [.connected]), .onContact),
        (agentEvent("holding", "Available", .routable, [.connectedOnHold, .incoming]), .onContact),
        (agentEvent("wrapping", "Lunch", .custom, [.ended]), .afterContactWork),
        (agentEvent("missed", "Available", .routable, [.connected, .missed]), .error),
        (agentEvent("rejected", "Available", .routable, [.ended, .rejected]), .error),
        (agentEvent("lunch", "Lunch", .custom, []), .customStatus),
        (agentEvent("offline", "Offline", .offline, []), .offline),
    ]

    static func agentEvent(
        _ name: String, _ status: String, _ type: AgentStatus.Kind, _ states: [AgentContact.State]
    ) -> AgentEvent {
        let at = base.adding(seconds: 600)
        return AgentEvent(
            agentArn: arn(name), eventId: "ev-\(name)", eventTimestamp: at, eventType: .stateChange,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(name: status, type: type, startTimestamp: at),
                configuration: AgentConfiguration(username: name),
                contacts: states.enumerated().map { index, state in
                    AgentContact(contactId: "\(name)-\(index)", state: state, stateStartTimestamp: at)
                }))
    }

    @Test("agent activity and queued, answered, abandoned per queue: the floor and the views, by hand")
    func sameEventsSameFigures() async throws {
        // The console: the reducer, fed in time order with `now` at each event.
        var floor = FloorState()
        let contactEvents = Self.contactEvents.sorted { $0.time < $1.time }
        for event in contactEvents {
            floor.reduce(.contact(event), now: event.time.date)
        }
        for (event, _) in Self.agents {
            floor.reduce(.agent(event), now: event.eventTimestamp.date)
        }
        let floorQueues = floor.queues.filter { $0.value.offered > 0 }
            .mapValues { [$0.offered, $0.answered, $0.abandoned] }
        let floorActivities = Dictionary(uniqueKeysWithValues: floor.agents.map { ($0.key, $0.value.activity) })

        let expectedActivities = Dictionary(uniqueKeysWithValues: Self.agents.map { ($0.event.agentArn, $0.expected) })
        #expect(floorQueues == Self.expectedQueues, "console")
        #expect(floorActivities == expectedActivities, "console")

        // The views: the same records and events through the ingest writer.
        try await IngestWriterTests.migrated("console_agreement") { client in
            var sources: [SourceRecord] = []
            for (offset, record) in Self.records.enumerated() {
                sources.append(
                    SourceRecord(
                        topic: "contact-records", partition: 0, offset: Int64(offset), key: nil,
                        value: Array(record.jsonData())))
            }
            for (offset, event) in contactEvents.enumerated() {
                sources.append(
                    SourceRecord(
                        topic: "contact-events", partition: 1, offset: Int64(offset), key: nil,
                        value: Array(event.jsonData())))
            }
            for (offset, agent) in Self.agents.enumerated() {
                sources.append(
                    SourceRecord(
                        topic: "agent-events", partition: 2, offset: Int64(offset), key: nil,
                        value: Array(agent.event.jsonData())))
            }
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            var queues: [String: [Int]] = [:]
            let queueRows = try await client.query(
                """
                SELECT queue, sum(queued)::int, sum(answered)::int, sum(abandoned)::int
                FROM queue_interval_metrics GROUP BY queue
                """,
                logger: TestDatabase.logger)
            for try await (queue, queued, answered, abandoned) in queueRows.decode((String, Int, Int, Int).self) {
                queues[queue] = [queued, answered, abandoned]
            }
            var activities: [String: AgentActivity] = [:]
            let activityRows = try await client.query(
                """
                SELECT DISTINCT ON (agent_arn) agent_arn, activity FROM agent_activity_segment
                ORDER BY agent_arn, start_ts DESC
                """,
                logger: TestDatabase.logger)
            for try await (agent, activity) in activityRows.decode((String, String).self) {
                activities[agent] = AgentActivity(rawValue: activity)
            }
            #expect(queues == Self.expectedQueues, "views")
            #expect(queues == floorQueues, "console and views")
            #expect(activities == expectedActivities, "views")
            #expect(activities == floorActivities, "console and views")
        }
        #expect(Set(AgentActivity.allCases.map(\.rawValue)) == Set(expectedActivities.values.map(\.rawValue)))
    }
}
