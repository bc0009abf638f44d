import Foundation

/// One simulated agent.
struct SimulatedAgent: Sendable {
    private static let names: [(first: String, last: String)] = [
        ("Haruka", "Sato"), ("Ren", "Suzuki"), ("Yui", "Takahashi"), ("Sota", "Tanaka"), ("Mio", "Watanabe"),
        ("Yuto", "Ito"), ("Aoi", "Yamamoto"), ("Riku", "Nakamura"), ("Hina", "Kobayashi"), ("Kaito", "Kato"),
        ("Sakura", "Yoshida"), ("Hayato", "Yamada"), ("Rin", "Sasaki"), ("Daiki", "Yamaguchi"), ("Mei", "Matsumoto"),
        ("Kenta", "Inoue"),
    ]

    var arn: String
    /// Its routing profile: an index into ``TrafficSimulation/routingProfiles``.
    var profile: Int
    var username: String
    var firstName: String
    var lastName: String
    var isLoggedIn = false
    var status: AgentStatus
    var contact: AgentContact?
    var lunchPending = false
    var shiftOver = false

    init(index: Int, profile: Int, instanceArn: String) {
        let name = SimulatedAgent.names[index % SimulatedAgent.names.count]
        self.profile = profile
        arn = instanceArn + "/agent/" + StableIdentifier.uuid("agent-\(index)")
        username = "agent\(String(index + 1).leftZeroPadded(to: 2))"
        firstName = name.first
        lastName = name.last
        status = AgentStatus(name: "Offline", type: .offline, startTimestamp: nil)
    }
}

extension TrafficSimulation {
    func snapshot(_ agent: Int) -> AgentSnapshot {
        let state = agents[agent]
        return AgentSnapshot(
            status: state.status,
            configuration: AgentConfiguration(
                username: state.username, firstName: state.firstName, lastName: state.lastName,
                routingProfile: routingProfiles[state.profile]),
            contacts: state.contact.map { [$0] } ?? []
        )
    }

    /// Applies `change` to the agent and emits the event that reports it.
    private mutating func change(
        _ agent: Int, _ type: AgentEvent.EventType, at: Int64, _ change: (inout SimulatedAgent) -> Void
    ) {
        guard configuration.emitsMessages else {
            change(&agents[agent])
            return
        }
        let previous = snapshot(agent)
        change(&agents[agent])
        let event = AgentEvent(
            agentArn: agents[agent].arn,
            eventId: newIdentifier(),
            eventTimestamp: UTCTimestamp(millisecondsSince1970: at),
            eventType: type,
            instanceArn: configuration.instanceArn,
            awsAccountId: "123456789012",
            currentSnapshot: snapshot(agent),
            previousSnapshot: previous
        )
        emit(.agentEvent, key: agents[agent].arn, value: event.jsonData(), at: at)
    }

    private mutating func setStatus(_ agent: Int, name: String, type: AgentStatus.Kind, at: Int64) {
        change(agent, .stateChange, at: at) {
            $0.status = AgentStatus(name: name, type: type, startTimestamp: UTCTimestamp(millisecondsSince1970: at))
            $0.contact = nil
        }
    }

    mutating func logIn(_ agent: Int, at: Int64) {
        change(agent, .login, at: at) { $0.isLoggedIn = true }
        setStatus(agent, name: "Available", type: .routable, at: at)
        idleAgents.append(agent)
        occurrences.schedule(.heartbeat(agent: agent), at: at + Int64(configuration.heartbeatSeconds) * 1_000)
        if let lunch = configuration.lunchAfter {
            occurrences.schedule(.lunch(agent: agent), at: at + Int64(lunch.draw(&random)) * 1_000)
        }
        if let shift = configuration.shiftSeconds {
            occurrences.schedule(.shiftEnd(agent: agent), at: at + Int64(shift) * 1_000)
        }
        dispatch(at: at)
    }

    /// Reports the agent's contact in `state` (the agent's status stays Available, as in Connect).
    mutating func setContactState(_ agent: Int, contact: SimulatedContact, state: AgentContact.State, at: Int64) {
        let queue = TrafficSimulation.queueReference(contact.queue, instanceArn: configuration.instanceArn)
        change(agent, .stateChange, at: at) {
            $0.contact = AgentContact(
                contactId: contact.id,
                initialContactId: contact.initialId ?? contact.id,
                state: state,
                stateStartTimestamp: UTCTimestamp(millisecondsSince1970: at),
                connectedToAgentTimestamp: contact.connected.map(UTCTimestamp.init(millisecondsSince1970:)),
                queueTimestamp: contact.enqueued.map(UTCTimestamp.init(millisecondsSince1970:)),
                queue: queue
            )
        }
    }

    /// The agent finished a contact's after-contact work: log out, take lunch or a break, or
    /// become available.
    mutating func agentIsFree(_ agent: Int, at: Int64) {
        if agents[agent].shiftOver {
            logOut(agent, at: at)
        } else if agents[agent].lunchPending {
            startCustomStatus(agent, name: "Lunch", duration: configuration.lunchDuration, at: at)
        } else if random.chance(configuration.breakProbability) {
            startCustomStatus(agent, name: "Break", duration: configuration.breakDuration, at: at)
        } else {
            setStatus(agent, name: "Available", type: .routable, at: at)
            idleAgents.append(agent)
            dispatch(at: at)
        }
    }

    private mutating func startCustomStatus(_ agent: Int, name: String, duration: SimulationDuration, at: Int64) {
        agents[agent].lunchPending = agents[agent].lunchPending && name != "Lunch"
        setStatus(agent, name: name, type: .custom, at: at)
        occurrences.schedule(.agentReturn(agent: agent), at: at + Int64(duration.draw(&random)) * 1_000)
    }

    mutating func returnFromCustomStatus(_ agent: Int, at: Int64) {
        guard agents[agent].isLoggedIn, agents[agent].status.type == .custom else { return }
        agentIsFree(agent, at: at)
    }

    mutating func lunchIsDue(_ agent: Int, at: Int64) {
        guard agents[agent].isLoggedIn else { return }
        if let position = idleAgents.firstIndex(of: agent) {
            idleAgents.remove(at: position)
            startCustomStatus(agent, name: "Lunch", duration: configuration.lunchDuration, at: at)
        } else {
            agents[agent].lunchPending = true
        }
    }

    mutating func heartbeat(_ agent: Int, at: Int64) {
        guard agents[agent].isLoggedIn else { return }
        change(agent, .heartBeat, at: at) { _ in }
        occurrences.schedule(.heartbeat(agent: agent), at: at + Int64(configuration.heartbeatSeconds) * 1_000)
    }

    mutating func shiftEnds(_ agent: Int, at: Int64) {
        guard agents[agent].isLoggedIn else { return }
        if agents[agent].contact == nil {
            logOut(agent, at: at)
        } else {
            agents[agent].shiftOver = true
        }
    }

    private mutating func logOut(_ agent: Int, at: Int64) {
        if let position = idleAgents.firstIndex(of: agent) { idleAgents.remove(at: position) }
        setStatus(agent, name: "Offline", type: .offline, at: at)
        change(agent, .logout, at: at) { $0.isLoggedIn = false }
    }
}

extension String {
    func leftZeroPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
