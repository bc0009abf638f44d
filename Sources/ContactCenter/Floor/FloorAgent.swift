/// An agent on the floor, as of the last agent event applied.
///
/// Every agent event carries the full snapshot, so each one replaces the agent's status,
/// contacts and configuration wholesale.
public struct FloorAgent: Sendable, Hashable {
    /// The agent ARN.
    public internal(set) var arn: String
    /// `Configuration.Username`.
    public internal(set) var username: String?
    /// `Configuration.FirstName`.
    public internal(set) var firstName: String?
    /// `Configuration.LastName`.
    public internal(set) var lastName: String?
    /// The status the agent chose, and since when.
    public internal(set) var status: AgentStatus?
    /// The contacts on the agent's desk, each with its state and since when.
    public internal(set) var contacts: [AgentContact]
    /// The routing profile.
    public internal(set) var routingProfile: ResourceReference?
    /// The queues of the routing profile.
    public internal(set) var inboundQueues: [ResourceReference]
    /// `EventTimestamp` of the last event applied; older events are outdated.
    public internal(set) var lastEventTimestamp: UTCTimestamp
    /// The reducer's `now` when the last event was applied, for the stale-agent timeout.
    public internal(set) var lastSeen: UTCTimestamp

    /// What the agent is doing.
    public var activity: AgentActivity { AgentActivity(status: status?.type, contacts: contacts) }

    /// The name to show: "First Last", else the username, else the last part of the ARN.
    public var displayName: String {
        let full = [firstName, lastName].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
        if !full.isEmpty { return full }
        if let username, !username.isEmpty { return username }
        return arn.split(separator: "/").last.map(String.init) ?? arn
    }
}
