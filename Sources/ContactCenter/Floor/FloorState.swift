import Foundation

/// The live state of the contact-center floor: agents, queues and contacts, folded from agent
/// events and contact events.
///
/// A pure reducer: ``reduce(_:now:)`` is the only way the state changes, and time is an
/// argument, never read inside. The console's ``FloorView`` is a pure function of this state.
///
/// ```swift
/// var floor = FloorState()
/// floor.reduce(.agent(try AgentEvent(jsonData: bytes)), now: .now)
/// floor.reduce(.tick, now: .now)
/// let view = FloorView(floor)
/// ```
///
/// Rules:
/// - Duplicates (an event id among the last ``FloorConfiguration/recentEventIDCapacity`` of its
///   stream) are dropped.
/// - Agent events: any event with a snapshot resynchronises the agent wholesale; an event older
///   than the agent's last one is outdated; `LOGOUT` removes the agent.
/// - Contact events arrive unordered: a contact's state only moves forward in the order
///   INITIATED < CONNECTED_TO_SYSTEM < QUEUED < CONNECTED_TO_AGENT < DISCONNECTED < COMPLETED;
///   facts (queue, agent, timestamps) from any event fill what is missing, and the latest event
///   by (state order, time) wins where they disagree.
/// - Today's queue counters count each contact once, by its enqueue time in the business day
///   of ``FloorConfiguration/timeZone``, and reset when `now` passes midnight there.
/// - ``FloorEvent/tick`` closes out stale contacts, purges old finished ones and removes silent
///   agents.
public struct FloorState: Sendable, Hashable {
    /// The settings the state was created with.
    public let configuration: FloorConfiguration
    /// Agents by ARN.
    public internal(set) var agents: [String: FloorAgent] = [:]
    /// Queues by ARN: every queue seen in a contact event or an agent's configuration today.
    public internal(set) var queues: [String: FloorQueue] = [:]
    /// Contacts by contact id, including finished ones until they are purged.
    public internal(set) var contacts: [String: FloorContact] = [:]
    /// The business day today's counters belong to; `nil` before the first event.
    public internal(set) var businessDay: BusinessDay?
    var recentAgentEventIDs: RecentEventIDs
    var recentContactEventIDs: RecentEventIDs

    /// Creates an empty floor.
    public init(configuration: FloorConfiguration = FloorConfiguration()) {
        self.configuration = configuration
        recentAgentEventIDs = RecentEventIDs(capacity: configuration.recentEventIDCapacity)
        recentContactEventIDs = RecentEventIDs(capacity: configuration.recentEventIDCapacity)
    }

    /// Folds one event into the state.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - now: The current time, used for the business day, staleness and purging. Pass the
    ///     wall clock in production and fixed instants in tests.
    /// - Returns: What was done with the event.
    @discardableResult
    public mutating func reduce(_ event: FloorEvent, now: Date) -> FloorEventOutcome {
        let now = UTCTimestamp(now)
        rollBusinessDay(now: now)
        switch event {
        case .agent(let agentEvent):
            guard recentAgentEventIDs.insert(agentEvent.eventId) else { return .duplicate }
            return apply(agentEvent, now: now)
        case .contact(let contactEvent):
            guard recentContactEventIDs.insert(contactEvent.id) else { return .duplicate }
            return apply(contactEvent, now: now)
        case .tick:
            tick(now: now)
            return .applied
        }
    }

    /// The state after folding `event`, leaving `self` unchanged.
    public func reducing(_ event: FloorEvent, now: Date) -> FloorState {
        var copy = self
        copy.reduce(event, now: now)
        return copy
    }

    // MARK: - Time

    /// Starts a new business day when `now` has passed the end of the current one: counters
    /// restart from the contacts enqueued in the new day, and queues nobody refers to any more
    /// are dropped.
    private mutating func rollBusinessDay(now: UTCTimestamp) {
        if let day = businessDay, now < day.end { return }
        let day = BusinessDay(containing: now, in: configuration.timeZone)
        businessDay = day
        for arn in queues.keys { queues[arn]!.resetCounters() }
        for id in contacts.keys {
            contacts[id]!.contribution = nil
            updateContribution(of: id)
        }
        var referenced = Set(contacts.values.compactMap(\.queueArn))
        for agent in agents.values {
            referenced.formUnion(agent.inboundQueues.compactMap(\.arn))
            referenced.formUnion(agent.contacts.compactMap(\.queue?.arn))
        }
        queues = queues.filter { referenced.contains($0.key) || $0.value.hasCounts }
    }

    private mutating func tick(now: UTCTimestamp) {
        let staleContact = configuration.staleContactTimeout.milliseconds
        let retention = configuration.finishedContactRetention.milliseconds
        for (id, contact) in contacts {
            if contact.isFinished {
                let finishedAt = contact.closedOutAt ?? contact.lastSeen
                if now.milliseconds(since: finishedAt) >= retention { contacts[id] = nil }
            } else if now.milliseconds(since: contact.lastSeen) >= staleContact {
                contacts[id]!.closedOutAt = now
                updateContribution(of: id)
            }
        }
        let staleAgent = configuration.staleAgentTimeout.milliseconds
        agents = agents.filter { now.milliseconds(since: $0.value.lastSeen) < staleAgent }
    }

    // MARK: - Queues

    /// Makes sure a queue exists, learning its name when given.
    mutating func registerQueue(arn: String?, name: String?) {
        guard let arn, !arn.isEmpty else { return }
        if queues[arn] == nil { queues[arn] = FloorQueue(arn: arn, name: name) }
        if let name, !name.isEmpty, queues[arn]!.name != name { queues[arn]!.name = name }
    }
}

extension FloorQueue {
    mutating func resetCounters() {
        offered = 0
        answered = 0
        answeredWithinThreshold = 0
        abandoned = 0
    }
}
