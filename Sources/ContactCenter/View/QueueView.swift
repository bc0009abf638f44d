/// One queue as the console shows it.
public struct QueueView: Sendable, Hashable, Codable, Identifiable {
    /// The queue ARN.
    public var id: String
    /// The queue name.
    public var name: String
    /// Contacts waiting now.
    public var waiting: Int
    /// Enqueue time of the contact waiting longest; `nil` when none waits.
    public var oldestWaitSince: UTCTimestamp?
    /// Contacts queued today.
    public var offered: Int
    /// Contacts queued today and answered.
    public var answered: Int
    /// Contacts queued today that left without an agent.
    public var abandoned: Int
    /// Contacts queued today and answered within the threshold.
    public var answeredWithinThreshold: Int
    /// Answered within threshold / offered (0…1); `nil` before the first contact of the day.
    public var serviceLevel: Double?

    /// Creates a queue row.
    public init(
        id: String, name: String, waiting: Int, oldestWaitSince: UTCTimestamp?, offered: Int, answered: Int,
        abandoned: Int, answeredWithinThreshold: Int, serviceLevel: Double?
    ) {
        self.id = id
        self.name = name
        self.waiting = waiting
        self.oldestWaitSince = oldestWaitSince
        self.offered = offered
        self.answered = answered
        self.abandoned = abandoned
        self.answeredWithinThreshold = answeredWithinThreshold
        self.serviceLevel = serviceLevel
    }

    /// Name, then id: a total order.
    static func displayOrder(_ lhs: QueueView, _ rhs: QueueView) -> Bool {
        (lhs.name, lhs.id) < (rhs.name, rhs.id)
    }
}
