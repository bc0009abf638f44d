import ContactCenter
import Foundation
import Kafka
import Logging
import Roles
import Server
import SwitchboardTesting
import Testing

@Suite("Floor end to end: the embedded Kafka → the feed → a connected stream", .serialized, .watched)
struct FloorEndToEndTests {
    static let instance = "arn:aws:connect:ap-northeast-1:123456789012:instance/e2e"

    func agentEvent(_ index: Int, status: String) -> AgentEvent {
        let now = UTCTimestamp(Date())
        return AgentEvent(
            agentArn: "\(Self.instance)/agent/\(index)", eventId: UUID().uuidString, eventTimestamp: now,
            eventType: .stateChange,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(name: status, type: .routable, startTimestamp: now),
                configuration: AgentConfiguration(username: "agent\(index)", firstName: "Agent", lastName: "\(index)")))
    }

    func queued(_ contactID: String) -> ContactEvent {
        let now = UTCTimestamp(Date())
        return ContactEvent(
            id: UUID().uuidString, time: now, eventType: .queued, contactId: contactID,
            queueInfo: ContactEvent.QueueInfo(queueArn: "\(Self.instance)/queue/q1", enqueueTimestamp: now))
    }

    @Test("events produced before start are rebuilt before ready; events produced after appear as deltas")
    func producedEventsReachTheStream() async throws {
        var logger = Logger(label: "e2e")
        logger.logLevel = .warning
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        let settings = try Settings(environment: [:])
        for topic in [settings.agentEventsTopic, settings.contactEventsTopic] {
            try cluster.createTopic(topic, partitions: 2)
        }
        let producer = try BackgroundProducer(
            configuration: KafkaProducerConfiguration(
                common: KafkaConfiguration(bootstrapServers: cluster.bootstrapServers), lingerMilliseconds: 1),
            logger: logger)
        func produce(_ event: AgentEvent) async throws {
            _ = try await producer.send(
                topic: settings.agentEventsTopic, key: Array(event.agentArn.utf8), value: Array(event.jsonData()))
        }
        try await produce(agentEvent(1, status: "Available"))

        let floor = FloorWiring(
            settings: settings, bootstrap: cluster.bootstrapServers, metadata: { try await producer.metadata() },
            logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await floor.publisher.run() }
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(30)
            while await !floor.readinessCheck.check().ready {
                #expect(clock.now < deadline, "the floor never caught up")
                if clock.now >= deadline { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let subscription = await floor.publisher.subscribe()
            guard case .messages(let first) = await subscription.next() else {
                Issue.record("no snapshot")
                return
            }
            #expect(first.first?.kind == .snapshot)
            var view = try JSONDecoder().decode(Snapshot.self, from: Data(first[0].json.utf8)).view
            #expect(view.agents.map(\.name) == ["Agent 1"], "rebuilt from the event produced before start")

            try await produce(agentEvent(2, status: "Available"))
            _ = try await producer.send(
                topic: settings.contactEventsTopic, key: Array("c-1".utf8), value: Array(queued("c-1").jsonData()))
            while view.agents.count < 2 || view.summary.contactsWaiting < 1 {
                #expect(clock.now < deadline + .seconds(20), "the produced events never arrived")
                guard clock.now < deadline + .seconds(20), case .messages(let messages) = await subscription.next()
                else {
                    break
                }
                for message in messages where message.kind == .delta {
                    view = view.applying(try JSONDecoder().decode(Delta.self, from: Data(message.json.utf8)).delta)
                }
            }
            #expect(view.agents.map(\.name) == ["Agent 1", "Agent 2"])
            #expect(view.summary.contactsWaiting == 1)
            group.cancelAll()
        }
        await producer.close()
    }

    struct Snapshot: Decodable { var view: FloorView }
    struct Delta: Decodable { var delta: FloorDelta }
}
