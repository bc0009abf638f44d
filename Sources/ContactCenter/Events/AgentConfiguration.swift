/// `Configuration {Username, FirstName, LastName, RoutingProfile, AgentHierarchyGroups}`.
public struct AgentConfiguration: Sendable, Hashable {
    /// `Username`.
    public var username: String?
    /// `FirstName`.
    public var firstName: String?
    /// `LastName`.
    public var lastName: String?
    /// `RoutingProfile`.
    public var routingProfile: AgentRoutingProfile?
    /// `AgentHierarchyGroups`: the agent's hierarchy levels (`null` when unassigned).
    public var hierarchyGroups: AgentHierarchyGroups?

    /// Creates a configuration.
    public init(
        username: String?, firstName: String? = nil, lastName: String? = nil,
        routingProfile: AgentRoutingProfile? = nil,
        hierarchyGroups: AgentHierarchyGroups? = nil
    ) {
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.routingProfile = routingProfile
        self.hierarchyGroups = hierarchyGroups
    }
}

/// `RoutingProfile {ARN, Name, InboundQueues[], DefaultOutboundQueue}` of an agent's configuration.
public struct AgentRoutingProfile: Sendable, Hashable {
    /// `ARN`.
    public var arn: String?
    /// `Name`.
    public var name: String?
    /// `InboundQueues`: the queues the agent takes contacts from.
    public var inboundQueues: [ResourceReference]
    /// `DefaultOutboundQueue`.
    public var defaultOutboundQueue: ResourceReference?

    /// Creates a routing profile.
    public init(
        arn: String?, name: String?, inboundQueues: [ResourceReference] = [],
        defaultOutboundQueue: ResourceReference? = nil
    ) {
        self.arn = arn
        self.name = name
        self.inboundQueues = inboundQueues
        self.defaultOutboundQueue = defaultOutboundQueue
    }
}
