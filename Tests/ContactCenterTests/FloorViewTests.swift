import Foundation
import Primitives
import Testing

@testable import ContactCenter

@Suite("FloorView")
struct FloorViewTests {
    typealias F = Fixtures

    private func sampleState() -> FloorState {
        var state = FloorState()
        state.reduce(
            .agent(F.agentEvent("a1", at: 30, contacts: [F.deskContact("c1", .connected, since: 25)])), now: F.now(30))
        state.reduce(
            .agent(
                F.agentEvent("b1", agent: F.agentTaro, at: 31, status: "Lunch", statusType: .custom, statusSince: 10)),
            now: F.now(31))
        state.reduce(
            .contact(F.contactEvent("e1", contact: "c1", .queued, at: 5, queue: F.queueTokyo, enqueuedAt: 5)),
            now: F.now(32))
        state.reduce(
            .contact(
                F.contactEvent("e2", contact: "c1", .connectedToAgent, at: 25, agent: F.agentHanako, connectedAt: 25)),
            now: F.now(33))
        state.reduce(
            .contact(F.contactEvent("e3", contact: "c2", .queued, at: 20, queue: F.queueTokyo, enqueuedAt: 20)),
            now: F.now(34))
        state.reduce(
            .contact(F.contactEvent("e4", contact: "c3", .queued, at: 28, queue: F.queueOsaka, enqueuedAt: 28)),
            now: F.now(35))
        return state
    }

    @Test("is a pure function of the state, sorted, with instants rather than durations")
    func view() throws {
        let state = sampleState()
        let view = FloorView(state)
        #expect(view == FloorView(state))
        #expect(view.businessDay == "2026-11-20")
        #expect(view.serviceLevelThresholdSeconds == 20)
        #expect(view.agents.map(\.name) == ["Hanako Sato", "Taro Sato"])
        #expect(
            view.agents[0]
                == AgentView(
                    id: F.agentHanako, name: "Hanako Sato", username: "hanako", activity: .onContact,
                    status: "Available",
                    statusType: "ROUTABLE", statusSince: F.at(0), routingProfile: "Restaurants Tokyo",
                    queues: ["Tokyo Reservations"],
                    contacts: [
                        AgentContactView(
                            contactId: "c1", channel: "VOICE", state: .connected, since: F.at(25),
                            queue: "Tokyo Reservations")
                    ]))
        #expect(view.agents[1].activity == .customStatus)
        #expect(view.agents[1].status == "Lunch")
        #expect(view.agents[1].statusSince == F.at(10))
        #expect(
            view.queues == [
                QueueView(
                    id: F.queueOsaka, name: "11111111-0000-0000-0000-000000000002", waiting: 1,
                    oldestWaitSince: F.at(28),
                    offered: 1, answered: 0, abandoned: 0, answeredWithinThreshold: 0, serviceLevel: 0),
                QueueView(
                    id: F.queueTokyo, name: "Tokyo Reservations", waiting: 1, oldestWaitSince: F.at(20), offered: 2,
                    answered: 1, abandoned: 0, answeredWithinThreshold: 1, serviceLevel: 0.5),
            ])
        #expect(
            view.summary
                == FloorSummary(
                    available: 0, onContact: 1, afterContactWork: 0, customStatus: 1, offline: 0, contactsWaiting: 2,
                    oldestWaitSince: F.at(20)))
        // Time passing alone does not change the view.
        var later = state
        later.reduce(.tick, now: F.now(90))
        #expect(FloorView(later) == view)
    }

    @Test("encodes to console-friendly JSON and back")
    func json() throws {
        let view = FloorView(sampleState())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(view)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""oldestWaitSince":"2026-11-20T09:00:20Z""#))
        #expect(text.contains(#""activity":"onContact""#))
        #expect(text.contains(#""state":"connected""#))
        #expect(try JSONDecoder().decode(FloorView.self, from: data) == view)
    }

    @Test("diff is nil without change and describes only what changed")
    func diff() throws {
        var state = sampleState()
        let before = FloorView(state)
        #expect(FloorView.diff(from: before, to: before) == nil)

        state.reduce(
            .agent(F.agentEvent("b2", agent: F.agentTaro, at: 40, status: "Available", statusSince: 40)), now: F.now(40)
        )
        let after = FloorView(state)
        let delta = try #require(FloorView.diff(from: before, to: after))
        #expect(delta.agents.map(\.id) == [F.agentTaro])
        #expect(delta.removedAgents.isEmpty)
        #expect(delta.queues.isEmpty)
        #expect(delta.summary.available == 1)
        #expect(delta.summary.customStatus == 0)
        #expect(before.applying(delta) == after)

        state.reduce(.agent(F.agentEvent("b3", agent: F.agentTaro, at: 50, type: .logout)), now: F.now(50))
        let removed = try #require(FloorView.diff(from: after, to: FloorView(state)))
        #expect(removed.removedAgents == [F.agentTaro])
        #expect(removed.agents.isEmpty)
        #expect(after.applying(removed) == FloorView(state))
    }

    /// Random but reproducible traffic: agents changing status and contacts, contact events in
    /// shuffled order, duplicates, ticks, and a business day boundary.
    private func randomEvents(seed: UInt64, count: Int) -> [(FloorEvent, Date)] {
        var generator = SplitMix64(seed: seed)
        let agents = [F.agentHanako, F.agentTaro, "\(F.instance)/agent/33333333-0000-0000-0000-000000000003"]
        let queues = [F.queueTokyo, F.queueOsaka]
        let contactStates: [AgentContact.State] = [
            .incoming, .connecting, .connected, .connectedOnHold, .missed, .ended,
        ]
        let statuses: [(String, AgentStatus.Kind)] = [
            ("Available", .routable), ("Lunch", .custom), ("Offline", .offline),
        ]
        let contactTypes: [ContactEvent.EventType] = [
            .initiated, .connectedToSystem, .queued, .connectedToAgent, .disconnected, .completed, .contactDataUpdated,
        ]
        // Start at 23:30 in Tokyo so the sequence crosses midnight.
        var clock = 5.5 * 3600
        var agentClock: [String: Double] = [:]
        var events: [(FloorEvent, Date)] = []
        var nextId = 0
        for _ in 0..<count {
            clock += Double(Int.random(in: 0...40, using: &generator))
            let roll = Int.random(in: 0..<100, using: &generator)
            let event: FloorEvent
            if roll < 35 {
                let agent = agents.randomElement(using: &generator)!
                let status = statuses.randomElement(using: &generator)!
                let contacts = (0..<Int.random(in: 0...2, using: &generator)).map { index in
                    F.deskContact(
                        "c\(Int.random(in: 0..<12, using: &generator))",
                        contactStates.randomElement(using: &generator)!,
                        since: clock - Double(index))
                }
                // Mostly in order per agent, sometimes a stale replay.
                let at = Bool.random(using: &generator) || agentClock[agent] == nil ? clock : agentClock[agent]! - 5
                agentClock[agent] = max(agentClock[agent] ?? at, at)
                let type: AgentEvent.EventType = [.stateChange, .heartBeat, .login, .logout, .stateChange]
                    .randomElement(using: &generator)!
                nextId += 1
                event = .agent(
                    F.agentEvent(
                        "a\(nextId)", agent: agent, at: at, type: type, status: status.0, statusType: status.1,
                        statusSince: clock - 30, contacts: contacts,
                        queues: Array(queues.prefix(Int.random(in: 1...2, using: &generator)))))
            } else if roll < 85 {
                let contact = "c\(Int.random(in: 0..<12, using: &generator))"
                let type = contactTypes.randomElement(using: &generator)!
                let at = clock - Double(Int.random(in: 0...60, using: &generator))
                let withQueue = type == .queued || (type != .initiated && Bool.random(using: &generator))
                nextId += 1
                event = .contact(
                    F.contactEvent(
                        "e\(nextId)", contact: contact, type, at: at,
                        queue: withQueue ? queues.randomElement(using: &generator)! : nil,
                        enqueuedAt: withQueue ? at - 3 : nil,
                        agent: type == .connectedToAgent ? agents.randomElement(using: &generator)! : nil,
                        connectedAt: type == .connectedToAgent ? at : nil))
            } else if roll < 92, let previous = events.randomElement(using: &generator) {
                event = previous.0  // a duplicate delivery
            } else {
                event = .tick
            }
            events.append((event, F.now(clock)))
        }
        return events
    }

    @Test(
        "a client folding the snapshot and every delta holds the server's view", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func foldEqualsServer(seed: UInt64) throws {
        let configuration = FloorConfiguration(
            staleContactTimeout: .seconds(900), finishedContactRetention: .seconds(600),
            staleAgentTimeout: .seconds(400))
        var state = FloorState(configuration: configuration)
        var serverView = FloorView(state)
        var clientView = try JSONDecoder().decode(FloorView.self, from: JSONEncoder().encode(serverView))
        var deltas = 0
        var days = Set<String>()
        for (event, now) in randomEvents(seed: seed, count: 600) {
            state.reduce(event, now: now)
            let next = FloorView(state)
            if let delta = FloorView.diff(from: serverView, to: next) {
                deltas += 1
                // Deltas travel as JSON.
                let wire = try JSONDecoder().decode(FloorDelta.self, from: JSONEncoder().encode(delta))
                #expect(wire == delta)
                clientView = clientView.applying(wire)
            } else {
                #expect(next == serverView)
            }
            serverView = next
            #expect(clientView == serverView)
            if let day = next.businessDay { days.insert(day) }
        }
        #expect(deltas > 100)
        #expect(days.count == 2, "the sequence crosses midnight in Tokyo")
    }

    @Test("queue counters equal the sum of what each contact contributes", arguments: [11, 12, 13] as [UInt64])
    func countersMatchContributions(seed: UInt64) {
        // No purging here, so every counted contact is still present.
        var state = FloorState(configuration: FloorConfiguration(finishedContactRetention: .seconds(1_000_000)))
        for (event, now) in randomEvents(seed: seed, count: 500) {
            state.reduce(event, now: now)
            var expected: [String: (Int, Int, Int, Int)] = [:]
            for contribution in state.contacts.values.compactMap(\.contribution) {
                var entry = expected[contribution.queueArn] ?? (0, 0, 0, 0)
                entry.0 += 1
                entry.1 += contribution.answered ? 1 : 0
                entry.2 += contribution.answeredWithinThreshold ? 1 : 0
                entry.3 += contribution.abandoned ? 1 : 0
                expected[contribution.queueArn] = entry
            }
            for queue in state.queues.values {
                let entry = expected[queue.arn] ?? (0, 0, 0, 0)
                #expect(queue.offered == entry.0 && queue.answered == entry.1)
                #expect(queue.answeredWithinThreshold == entry.2 && queue.abandoned == entry.3)
                #expect(queue.answered + queue.abandoned <= queue.offered)
            }
        }
    }
}
