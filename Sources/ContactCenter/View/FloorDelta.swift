/// The change from one ``FloorView`` to the next, as pushed to console clients.
///
/// Rows are replaced whole (an agent row is small); the summary is always sent.
public struct FloorDelta: Sendable, Hashable, Codable {
    /// The business day after the change.
    public var businessDay: String?
    /// Agents added or changed, whole rows.
    public var agents: [AgentView]
    /// Ids of agents removed.
    public var removedAgents: [String]
    /// Queues added or changed, whole rows.
    public var queues: [QueueView]
    /// Ids of queues removed.
    public var removedQueues: [String]
    /// The summary after the change.
    public var summary: FloorSummary

    /// Creates a delta.
    public init(
        businessDay: String?, agents: [AgentView], removedAgents: [String], queues: [QueueView],
        removedQueues: [String], summary: FloorSummary
    ) {
        self.businessDay = businessDay
        self.agents = agents
        self.removedAgents = removedAgents
        self.queues = queues
        self.removedQueues = removedQueues
        self.summary = summary
    }
}
