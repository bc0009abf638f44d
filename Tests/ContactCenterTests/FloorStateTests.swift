import Foundation
import Testing

@testable import ContactCenter

@Suite("FloorState reducer")
struct FloorStateTests {
    typealias F = Fixtures

    /// One row of a table: an event, the reducer's `now`, and what must hold afterwards.
    struct Step {
        var event: FloorEvent
        var now: Double
        var outcome: FloorEventOutcome = .applied
        var contact: FloorContact?
        var queue: FloorQueue?
    }

    static func contact(
        _ id: String, _ state: FloorContact.State, since: Double, queue: String? = F.queueTokyo,
        enqueued: Double? = nil,
        agent: String? = nil, connected: Double? = nil, disconnected: Double? = nil, lastEvent: Double,
        lastSeen: Double,
        closedOut: Double? = nil, contribution: QueueContribution? = nil
    ) -> FloorContact {
        FloorContact(
            contactId: id, state: state, stateSince: F.at(since), channel: .voice, initiationMethod: "INBOUND",
            initiationTimestamp: nil, queueArn: queue, enqueueTimestamp: enqueued.map(F.at), agentArn: agent,
            connectedToAgentTimestamp: connected.map(F.at), disconnectTimestamp: disconnected.map(F.at),
            closedOutAt: closedOut.map(F.at), lastEventTime: F.at(lastEvent), lastSeen: F.at(lastSeen),
            contribution: contribution)
    }

    static func tokyo(
        named name: String? = nil, offered: Int = 0, answered: Int = 0, within: Int = 0, abandoned: Int = 0
    ) -> FloorQueue {
        FloorQueue(
            arn: F.queueTokyo, name: name, offered: offered, answered: answered, answeredWithinThreshold: within,
            abandoned: abandoned)
    }

    static func counted(answered: Bool = false, within: Bool = false, abandoned: Bool = false) -> QueueContribution {
        QueueContribution(
            queueArn: F.queueTokyo, answered: answered, answeredWithinThreshold: within, abandoned: abandoned)
    }

    private func run(_ steps: [Step], on state: inout FloorState, sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, step) in steps.enumerated() {
            let outcome = state.reduce(step.event, now: F.now(step.now))
            #expect(outcome == step.outcome, "step \(index)", sourceLocation: sourceLocation)
            if let contact = step.contact {
                #expect(state.contacts[contact.contactId] == contact, "step \(index)", sourceLocation: sourceLocation)
            }
            if let queue = step.queue {
                #expect(state.queues[queue.arn] == queue, "step \(index)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("a contact's life in order: queued, answered within threshold, disconnected, completed")
    func contactLifeInOrder() {
        var state = FloorState()
        run(
            [
                Step(
                    event: .contact(F.contactEvent("e1", contact: "c1", .initiated, at: 0)), now: 0,
                    contact: Self.contact("c1", .initiated, since: 0, queue: nil, lastEvent: 0, lastSeen: 0)),
                Step(
                    event: .contact(
                        F.contactEvent("e2", contact: "c1", .queued, at: 2, queue: F.queueTokyo, enqueuedAt: 2)),
                    now: 2,
                    contact: Self.contact(
                        "c1", .queued, since: 2, enqueued: 2, lastEvent: 2, lastSeen: 2, contribution: Self.counted()),
                    queue: Self.tokyo(offered: 1)),
                Step(
                    event: .contact(
                        F.contactEvent(
                            "e3", contact: "c1", .connectedToAgent, at: 22, queue: F.queueTokyo, enqueuedAt: 2,
                            agent: F.agentHanako, connectedAt: 22)), now: 22,
                    contact: Self.contact(
                        "c1", .connectedToAgent, since: 22, enqueued: 2, agent: F.agentHanako, connected: 22,
                        lastEvent: 22,
                        lastSeen: 22, contribution: Self.counted(answered: true, within: true)),
                    queue: Self.tokyo(offered: 1, answered: 1, within: 1)),
                Step(
                    event: .contact(F.contactEvent("e4", contact: "c1", .disconnected, at: 100)), now: 100,
                    contact: Self.contact(
                        "c1", .disconnected, since: 100, enqueued: 2, agent: F.agentHanako, connected: 22,
                        disconnected: 100,
                        lastEvent: 100, lastSeen: 100, contribution: Self.counted(answered: true, within: true)),
                    queue: Self.tokyo(offered: 1, answered: 1, within: 1)),
                Step(
                    event: .contact(F.contactEvent("e5", contact: "c1", .completed, at: 130)), now: 130,
                    contact: Self.contact(
                        "c1", .completed, since: 130, enqueued: 2, agent: F.agentHanako, connected: 22,
                        disconnected: 100,
                        lastEvent: 130, lastSeen: 130, contribution: Self.counted(answered: true, within: true)),
                    queue: Self.tokyo(offered: 1, answered: 1, within: 1)),
            ], on: &state)
    }

    @Test("out-of-order contact events never move a contact backwards, and counters follow the facts")
    func outOfOrder() {
        var state = FloorState()
        run(
            [
                // DISCONNECTED arrives first: finished, but not known to be queued yet.
                Step(
                    event: .contact(F.contactEvent("e4", contact: "c1", .disconnected, at: 100)), now: 101,
                    contact: Self.contact(
                        "c1", .disconnected, since: 100, queue: nil, disconnected: 100, lastEvent: 100, lastSeen: 101)),
                // QUEUED: now known to be queued and, as far as we know, never answered.
                Step(
                    event: .contact(
                        F.contactEvent("e2", contact: "c1", .queued, at: 2, queue: F.queueTokyo, enqueuedAt: 2)),
                    now: 102,
                    contact: Self.contact(
                        "c1", .disconnected, since: 100, enqueued: 2, disconnected: 100, lastEvent: 100, lastSeen: 102,
                        contribution: Self.counted(abandoned: true)),
                    queue: Self.tokyo(offered: 1, abandoned: 1)),
                // CONNECTED_TO_AGENT: it was answered after all, 30 s after queueing (beyond 20 s).
                Step(
                    event: .contact(
                        F.contactEvent(
                            "e3", contact: "c1", .connectedToAgent, at: 32, agent: F.agentHanako, connectedAt: 32)),
                    now: 103,
                    contact: Self.contact(
                        "c1", .disconnected, since: 100, enqueued: 2, agent: F.agentHanako, connected: 32,
                        disconnected: 100,
                        lastEvent: 100, lastSeen: 103, contribution: Self.counted(answered: true)),
                    queue: Self.tokyo(offered: 1, answered: 1)),
                // INITIATED, the oldest of all, changes nothing but lastSeen.
                Step(
                    event: .contact(F.contactEvent("e1", contact: "c1", .initiated, at: 0)), now: 104,
                    contact: Self.contact(
                        "c1", .disconnected, since: 100, enqueued: 2, agent: F.agentHanako, connected: 32,
                        disconnected: 100,
                        lastEvent: 100, lastSeen: 104, contribution: Self.counted(answered: true)),
                    queue: Self.tokyo(offered: 1, answered: 1)),
            ], on: &state)
    }

    @Test("duplicates are dropped; the memory of ids is bounded")
    func duplicates() {
        var state = FloorState(configuration: FloorConfiguration(recentEventIDCapacity: 2))
        let queued = FloorEvent.contact(
            F.contactEvent("e1", contact: "c1", .queued, at: 0, queue: F.queueTokyo, enqueuedAt: 0))
        let expected = Self.contact(
            "c1", .queued, since: 0, enqueued: 0, lastEvent: 0, lastSeen: 0, contribution: Self.counted())
        run(
            [
                Step(event: queued, now: 0, contact: expected, queue: Self.tokyo(offered: 1)),
                Step(event: queued, now: 5, outcome: .duplicate, contact: expected, queue: Self.tokyo(offered: 1)),
                Step(event: .agent(F.agentEvent("a1", at: 1)), now: 6),
                Step(event: .agent(F.agentEvent("a1", at: 1)), now: 6, outcome: .duplicate),
            ], on: &state)
        // Two more contact ids push "e1" out of the memory; the repeat is applied again but
        // cannot count the contact twice or move it.
        state.reduce(.contact(F.contactEvent("x1", contact: "c2", .initiated, at: 1)), now: F.now(7))
        state.reduce(.contact(F.contactEvent("x2", contact: "c3", .initiated, at: 1)), now: F.now(8))
        #expect(state.reduce(queued, now: F.now(9)) == .applied)
        #expect(state.queues[F.queueTokyo] == Self.tokyo(named: "Tokyo Reservations", offered: 1))
        #expect(state.contacts["c1"]?.state == .queued)
        #expect(state.recentContactEventIDs.count == 2)
    }

    @Test("service level threshold is inclusive and configurable")
    func threshold() {
        for (wait, threshold, within) in [(20.0, 20, true), (20.001, 20, false), (9.0, 10, true), (11.0, 10, false)] {
            var state = FloorState(configuration: FloorConfiguration(serviceLevelThreshold: .seconds(threshold)))
            state.reduce(
                .contact(F.contactEvent("e1", contact: "c1", .queued, at: 0, queue: F.queueTokyo, enqueuedAt: 0)),
                now: F.now(0))
            state.reduce(
                .contact(
                    F.contactEvent(
                        "e2", contact: "c1", .connectedToAgent, at: wait, agent: F.agentHanako, connectedAt: wait)),
                now: F.now(wait))
            #expect(
                state.queues[F.queueTokyo] == Self.tokyo(offered: 1, answered: 1, within: within ? 1 : 0),
                "wait \(wait)")
            #expect(state.queues[F.queueTokyo]?.serviceLevel == (within ? 1 : 0))
        }
    }

    @Test("a queued contact that disconnects without an agent is abandoned")
    func abandoned() {
        var state = FloorState()
        run(
            [
                Step(
                    event: .contact(
                        F.contactEvent("e1", contact: "c1", .queued, at: 0, queue: F.queueTokyo, enqueuedAt: 0)),
                    now: 0, queue: Self.tokyo(offered: 1)),
                Step(
                    event: .contact(F.contactEvent("e2", contact: "c1", .disconnected, at: 45)), now: 45,
                    contact: Self.contact(
                        "c1", .disconnected, since: 45, enqueued: 0, disconnected: 45, lastEvent: 45, lastSeen: 45,
                        contribution: Self.counted(abandoned: true)),
                    queue: Self.tokyo(offered: 1, abandoned: 1)),
            ], on: &state)
        #expect(state.queues[F.queueTokyo]?.serviceLevel == 0)
    }

    @Test(
        "a queued contact continued by a callback or transfer is not abandoned, whichever event comes first",
        arguments: [false, true])
    func movedOnIsNotAbandoned(nextFirst: Bool) {
        var state = FloorState()
        let queued = ContactEvent(
            id: "e1", time: F.at(0), eventType: .queued, contactId: "c1",
            queueInfo: ContactEvent.QueueInfo(queueArn: F.queueTokyo, enqueueTimestamp: F.at(0)))
        let disconnected = F.contactEvent("e2", contact: "c1", .disconnected, at: 30)
        let callback = ContactEvent(
            id: "e3", time: F.at(31), eventType: .initiated, contactId: "c2", previousContactId: "c1",
            initiationMethod: "CALLBACK")
        let events = nextFirst ? [callback, queued, disconnected] : [queued, disconnected, callback]
        for (index, event) in events.enumerated() {
            state.reduce(.contact(event), now: F.now(Double(index)))
        }
        #expect(state.contacts["c1"]?.movedOn == true)
        #expect(state.contacts["c1"]?.state == .disconnected)
        #expect(state.queues[F.queueTokyo] == Self.tokyo(offered: 1))
    }

    @Test("unknown contact event types are ignored; CONTACT_DATA_UPDATED only fills facts")
    func unknownAndDataUpdated() {
        var state = FloorState()
        #expect(
            state.reduce(.contact(F.contactEvent("e0", contact: "c1", .other("TELEPORTED"), at: 0)), now: F.now(0))
                == .ignored)
        #expect(state.contacts.isEmpty)
        state.reduce(.contact(F.contactEvent("e1", contact: "c1", .connectedToSystem, at: 1)), now: F.now(1))
        state.reduce(
            .contact(F.contactEvent("e2", contact: "c1", .contactDataUpdated, at: 2, queue: F.queueOsaka)),
            now: F.now(2))
        #expect(state.contacts["c1"]?.state == .connectedToSystem)
        #expect(state.contacts["c1"]?.queueArn == F.queueOsaka)
        #expect(state.contacts["c1"]?.lastEventTime == F.at(2))
    }

    @Test("agent events: snapshot resync, heartbeat, outdated events, ACW, logout")
    func agents() throws {
        var state = FloorState()
        func agent(
            status: AgentStatus, contacts: [AgentContact] = [], lastEvent: Double, lastSeen: Double
        ) -> FloorAgent {
            FloorAgent(
                arn: F.agentHanako, username: "hanako", firstName: "Hanako", lastName: "Sato", status: status,
                contacts: contacts, routingProfile: ResourceReference(arn: F.profile, name: "Restaurants Tokyo"),
                inboundQueues: [ResourceReference(arn: F.queueTokyo, name: "Tokyo Reservations")],
                lastEventTimestamp: F.at(lastEvent), lastSeen: F.at(lastSeen))
        }
        let available = AgentStatus(name: "Available", type: .routable, startTimestamp: F.at(0))
        let lunch = AgentStatus(name: "Lunch", type: .custom, startTimestamp: F.at(300))
        let connected = F.deskContact("c1", .connected, since: 20)
        let ended = F.deskContact("c1", .ended, since: 200)

        let table: [(FloorEvent, Double, FloorEventOutcome, FloorAgent?, AgentActivity?)] = [
            (
                .agent(F.agentEvent("a1", at: 0, type: .login)), 0, .applied,
                agent(status: available, lastEvent: 0, lastSeen: 0), .available
            ),
            // The STATE_CHANGE events for ringing and connecting were lost: the heartbeat's snapshot resyncs.
            (
                .agent(F.agentEvent("a2", at: 120, type: .heartBeat, contacts: [connected])), 120, .applied,
                agent(status: available, contacts: [connected], lastEvent: 120, lastSeen: 120), .onContact
            ),
            // An event older than the last one applied is outdated.
            (
                .agent(F.agentEvent("a0", at: 60, contacts: [])), 121, .outdated,
                agent(status: available, contacts: [connected], lastEvent: 120, lastSeen: 120), .onContact
            ),
            (
                .agent(F.agentEvent("a3", at: 200, contacts: [ended])), 200, .applied,
                agent(status: available, contacts: [ended], lastEvent: 200, lastSeen: 200), .afterContactWork
            ),
            // Choosing Lunch during after-contact work: still after-contact work.
            (
                .agent(
                    F.agentEvent(
                        "a4", at: 300, status: "Lunch", statusType: .custom, statusSince: 300, contacts: [ended])), 300,
                .applied, agent(status: lunch, contacts: [ended], lastEvent: 300, lastSeen: 300), .afterContactWork
            ),
            (
                .agent(F.agentEvent("a5", at: 310, status: "Lunch", statusType: .custom, statusSince: 300)), 310,
                .applied,
                agent(status: lunch, lastEvent: 310, lastSeen: 310), .customStatus
            ),
            (
                .agent(F.agentEvent("a6", at: 400, type: .logout, status: "Offline", statusType: .offline)), 400,
                .applied, nil, nil
            ),
        ]
        for (index, (event, now, outcome, expected, activity)) in table.enumerated() {
            #expect(state.reduce(event, now: F.now(now)) == outcome, "row \(index)")
            #expect(state.agents[F.agentHanako] == expected, "row \(index)")
            #expect(state.agents[F.agentHanako]?.activity == activity, "row \(index)")
        }
        #expect(state.queues[F.queueTokyo]?.name == "Tokyo Reservations")
    }

    @Test(
        "activity classification",
        arguments: [
            (AgentStatus.Kind.routable, [AgentContact.State](), AgentActivity.available),
            (.custom, [], .customStatus),
            (.offline, [], .offline),
            (.routable, [.missed], .error),
            (.custom, [.rejected, .connected], .error),
            (.offline, [.ended], .afterContactWork),
            (.routable, [.ended, .incoming], .afterContactWork),
            (.routable, [.incoming], .connecting),
            (.routable, [.pending, .connecting], .connecting),
            (.custom, [.connectedOnHold, .ended], .onContact),
            (.custom, [.connectedOnHold], .onContact),
            (.other("NEW"), [], .customStatus),
            (.routable, [.other("PAUSED")], .available),
        ])
    func activity(status: AgentStatus.Kind, states: [AgentContact.State], expected: AgentActivity) {
        let contacts = states.enumerated().map { F.deskContact("c\($0.offset)", $0.element, since: 0) }
        #expect(AgentActivity(status: status, contacts: contacts) == expected)
    }

    @Test("tick closes out stale contacts (not abandoned), purges old finished ones and removes silent agents")
    func tick() {
        let configuration = FloorConfiguration(
            staleContactTimeout: .seconds(600), finishedContactRetention: .seconds(300),
            staleAgentTimeout: .seconds(360))
        var state = FloorState(configuration: configuration)
        state.reduce(
            .contact(F.contactEvent("e1", contact: "c1", .queued, at: 0, queue: F.queueTokyo, enqueuedAt: 0)),
            now: F.now(0))
        state.reduce(.agent(F.agentEvent("a1", at: 0)), now: F.now(0))
        state.reduce(.agent(F.agentEvent("b1", agent: F.agentTaro, at: 0)), now: F.now(0))
        state.reduce(.agent(F.agentEvent("b2", agent: F.agentTaro, at: 300, type: .heartBeat)), now: F.now(300))

        state.reduce(.tick, now: F.now(359))
        #expect(state.agents.count == 2)
        state.reduce(.tick, now: F.now(360))
        #expect(Set(state.agents.keys) == [F.agentTaro])

        state.reduce(.tick, now: F.now(599))
        #expect(state.contacts["c1"]?.isWaiting == true)
        #expect(FloorView(state).summary.contactsWaiting == 1)
        state.reduce(.tick, now: F.now(600))
        #expect(
            state.contacts["c1"]
                == Self.contact(
                    "c1", .queued, since: 0, enqueued: 0, lastEvent: 0, lastSeen: 0, closedOut: 600,
                    contribution: Self.counted()))
        #expect(state.queues[F.queueTokyo] == Self.tokyo(named: "Tokyo Reservations", offered: 1))
        #expect(FloorView(state).summary.contactsWaiting == 0)

        state.reduce(.tick, now: F.now(899))
        #expect(state.contacts["c1"] != nil)
        state.reduce(.tick, now: F.now(900))
        #expect(state.contacts["c1"] == nil)
        #expect(
            state.queues[F.queueTokyo] == Self.tokyo(named: "Tokyo Reservations", offered: 1),
            "purging keeps today's counts")
    }

    @Test("counters belong to the business day in the configured time zone and reset at its midnight")
    func businessDay() throws {
        var state = FloorState()
        // 2026-11-20T14:59:00Z is 23:59 in Tokyo.
        let beforeMidnight = 6 * 3600 - 60.0
        state.reduce(
            .contact(
                F.contactEvent(
                    "e1", contact: "c1", .queued, at: beforeMidnight, queue: F.queueTokyo, enqueuedAt: beforeMidnight)),
            now: F.now(beforeMidnight))
        #expect(state.businessDay?.date == "2026-11-20")
        #expect(state.businessDay?.start == UTCTimestamp(iso8601: "2026-11-19T15:00:00Z"))
        #expect(state.queues[F.queueTokyo] == Self.tokyo(offered: 1))

        state.reduce(.tick, now: F.now(beforeMidnight + 61))
        #expect(state.businessDay?.date == "2026-11-21")
        #expect(state.queues[F.queueTokyo] == Self.tokyo(), "the waiting contact keeps its queue, counters restart")
        #expect(FloorView(state).queues.first?.waiting == 1)

        // Answering yesterday's contact does not count today; today's contact does.
        state.reduce(
            .contact(
                F.contactEvent("e2", contact: "c1", .connectedToAgent, at: beforeMidnight + 70, agent: F.agentHanako)),
            now: F.now(beforeMidnight + 70))
        state.reduce(
            .contact(
                F.contactEvent(
                    "e3", contact: "c2", .queued, at: beforeMidnight + 80, queue: F.queueTokyo,
                    enqueuedAt: beforeMidnight + 80)),
            now: F.now(beforeMidnight + 80))
        #expect(state.queues[F.queueTokyo] == Self.tokyo(offered: 1))

        // A clock that steps back does not reopen yesterday.
        state.reduce(.tick, now: F.now(beforeMidnight))
        #expect(state.businessDay?.date == "2026-11-21")

        var utc = FloorState(configuration: FloorConfiguration(timeZone: TimeZone(identifier: "UTC")!))
        utc.reduce(.tick, now: F.now(beforeMidnight))
        #expect(utc.businessDay?.date == "2026-11-20")
        #expect(utc.businessDay?.end == UTCTimestamp(iso8601: "2026-11-21T00:00:00Z"))
    }

    @Test("a new day drops queues nobody refers to")
    func dropsUnusedQueues() {
        var state = FloorState()
        state.reduce(.agent(F.agentEvent("a1", at: 0, queues: [F.queueTokyo, F.queueOsaka])), now: F.now(0))
        state.reduce(.agent(F.agentEvent("a2", at: 1, type: .logout)), now: F.now(1))
        #expect(state.queues.count == 2)
        state.reduce(.tick, now: F.now(86_400))
        #expect(state.queues.isEmpty)
    }

    @Test("reducing leaves the original untouched")
    func reducing() {
        let state = FloorState()
        let next = state.reducing(.agent(F.agentEvent("a1", at: 0)), now: F.now(0))
        #expect(state.agents.isEmpty)
        #expect(next.agents.count == 1)
    }
}
