/// The summary tiles at the top of the console.
public struct FloorSummary: Sendable, Hashable, Codable {
    /// Agents available for a contact.
    public var available: Int
    /// Agents on a contact.
    public var onContact: Int
    /// Agents in after-contact work.
    public var afterContactWork: Int
    /// Agents in a custom status (break, lunch …) without a contact.
    public var customStatus: Int
    /// Agents offline but still logged in.
    public var offline: Int
    /// Contacts waiting in all queues.
    public var contactsWaiting: Int
    /// Enqueue time of the contact waiting longest in any queue.
    public var oldestWaitSince: UTCTimestamp?
    /// Agents with a contact incoming, pending or connecting (ringing).
    public var connecting: Int
    /// Agents with a missed, rejected or failed contact not cleared yet.
    public var error: Int

    /// Creates the tiles.
    public init(
        available: Int, onContact: Int, afterContactWork: Int, customStatus: Int, offline: Int, contactsWaiting: Int,
        oldestWaitSince: UTCTimestamp?, connecting: Int = 0, error: Int = 0
    ) {
        self.available = available
        self.onContact = onContact
        self.afterContactWork = afterContactWork
        self.customStatus = customStatus
        self.offline = offline
        self.contactsWaiting = contactsWaiting
        self.oldestWaitSince = oldestWaitSince
        self.connecting = connecting
        self.error = error
    }

    /// Counts `agents` by activity and sums the queues' waiting contacts.
    public init(agents: [AgentView], queues: [QueueView]) {
        var counts: [AgentActivity: Int] = [:]
        for agent in agents { counts[agent.activity, default: 0] += 1 }
        self.init(
            available: counts[.available] ?? 0,
            onContact: counts[.onContact] ?? 0,
            afterContactWork: counts[.afterContactWork] ?? 0,
            customStatus: counts[.customStatus] ?? 0,
            offline: counts[.offline] ?? 0,
            contactsWaiting: queues.reduce(0) { $0 + $1.waiting },
            oldestWaitSince: queues.compactMap(\.oldestWaitSince).min(),
            connecting: counts[.connecting] ?? 0,
            error: counts[.error] ?? 0
        )
    }
}
