/// `CurrentAgentSnapshot` / `PreviousAgentSnapshot` of an agent event: the agent's status,
/// configuration and contacts at one instant.
public struct AgentSnapshot: Sendable, Hashable {
    /// `AgentStatus`.
    public var status: AgentStatus?
    /// `Configuration`.
    public var configuration: AgentConfiguration?
    /// `Contacts`: the contacts on the agent's desk, in wire order.
    public var contacts: [AgentContact]
    /// `NextAgentStatus`: the status the agent takes once their contacts end; while it is set,
    /// no new contacts are routed to them.
    public var nextStatus: AgentNextStatus?

    /// Creates a snapshot.
    public init(
        status: AgentStatus?, configuration: AgentConfiguration?, contacts: [AgentContact] = [],
        nextStatus: AgentNextStatus? = nil
    ) {
        self.status = status
        self.configuration = configuration
        self.contacts = contacts
        self.nextStatus = nextStatus
    }
}
