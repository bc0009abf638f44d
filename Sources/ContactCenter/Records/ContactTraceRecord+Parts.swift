extension ContactTraceRecord {
    /// `CustomerEndpoint` / `SystemEndpoint`: `{Address, Type}`.
    public struct Endpoint: Sendable, Hashable, Codable {
        /// `Address`, e.g. `+81312345678`.
        public var address: String?
        /// `Type`, e.g. `TELEPHONE_NUMBER`.
        public var type: String?

        /// Creates an endpoint.
        public init(address: String?, type: String? = "TELEPHONE_NUMBER") {
            self.address = address
            self.type = type
        }
    }

    /// `Queue`: the queue the contact waited in.
    public struct Queue: Sendable, Hashable, Codable {
        /// `ARN`.
        public var arn: String?
        /// `Name`.
        public var name: String?
        /// `EnqueueTimestamp`.
        public var enqueueTimestamp: UTCTimestamp?
        /// `DequeueTimestamp`.
        public var dequeueTimestamp: UTCTimestamp?
        /// `Duration`: whole seconds in queue.
        public var duration: Int?

        /// Creates a queue segment.
        public init(
            arn: String?, name: String?, enqueueTimestamp: UTCTimestamp?, dequeueTimestamp: UTCTimestamp? = nil,
            duration: Int? = nil
        ) {
            self.arn = arn
            self.name = name
            self.enqueueTimestamp = enqueueTimestamp
            self.dequeueTimestamp = dequeueTimestamp
            self.duration = duration
        }
    }

    /// `Agent`: the agent who handled the contact.
    public struct Agent: Sendable, Hashable, Codable {
        /// `ARN`.
        public var arn: String?
        /// `Username`.
        public var username: String?
        /// `ConnectedToAgentTimestamp`: when the agent was connected (answer time).
        public var connectedToAgentTimestamp: UTCTimestamp?
        /// `AgentInteractionDuration`: whole seconds of talk.
        public var agentInteractionDuration: Int?
        /// `AfterContactWorkStartTimestamp`.
        public var afterContactWorkStartTimestamp: UTCTimestamp?
        /// `AfterContactWorkEndTimestamp`.
        public var afterContactWorkEndTimestamp: UTCTimestamp?
        /// `AfterContactWorkDuration`: whole seconds.
        public var afterContactWorkDuration: Int?
        /// `CustomerHoldDuration`: whole seconds the customer was on hold.
        public var customerHoldDuration: Int?
        /// `NumberOfHolds`.
        public var numberOfHolds: Int?
        /// `LongestHoldDuration`: whole seconds.
        public var longestHoldDuration: Int?
        /// `RoutingProfile`.
        public var routingProfile: ResourceReference?
        /// `HierarchyGroups`: the agent's hierarchy levels and their names (`null` when the
        /// agent is in no hierarchy group).
        public var hierarchyGroups: AgentHierarchyGroups?

        /// Creates an agent segment.
        public init(
            arn: String?,
            username: String?,
            connectedToAgentTimestamp: UTCTimestamp?,
            agentInteractionDuration: Int? = nil,
            afterContactWorkStartTimestamp: UTCTimestamp? = nil,
            afterContactWorkEndTimestamp: UTCTimestamp? = nil,
            afterContactWorkDuration: Int? = nil,
            customerHoldDuration: Int? = nil,
            numberOfHolds: Int? = nil,
            longestHoldDuration: Int? = nil,
            routingProfile: ResourceReference? = nil,
            hierarchyGroups: AgentHierarchyGroups? = nil
        ) {
            self.arn = arn
            self.username = username
            self.connectedToAgentTimestamp = connectedToAgentTimestamp
            self.agentInteractionDuration = agentInteractionDuration
            self.afterContactWorkStartTimestamp = afterContactWorkStartTimestamp
            self.afterContactWorkEndTimestamp = afterContactWorkEndTimestamp
            self.afterContactWorkDuration = afterContactWorkDuration
            self.customerHoldDuration = customerHoldDuration
            self.numberOfHolds = numberOfHolds
            self.longestHoldDuration = longestHoldDuration
            self.routingProfile = routingProfile
            self.hierarchyGroups = hierarchyGroups
        }
    }
}
