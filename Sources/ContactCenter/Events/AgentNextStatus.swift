/// `NextAgentStatus {Name, ARN, EnqueuedTimestamp}` of an agent snapshot: the status an agent
/// chose to take once their current contacts end.
///
/// While a next status is set, Amazon Connect routes no new contacts to the agent, although
/// ``AgentSnapshot/status`` still shows the status they are leaving (often `Available`). See the
/// sample agent event stream in the Amazon Connect administrator guide.
public struct AgentNextStatus: Sendable, Hashable {
    /// `Name`, e.g. `Lunch`.
    public var name: String?
    /// `ARN` of the status.
    public var arn: String?
    /// `EnqueuedTimestamp`: when the agent set it, which is when routing to them paused.
    public var enqueuedTimestamp: UTCTimestamp?

    /// Creates a next status.
    public init(name: String?, arn: String? = nil, enqueuedTimestamp: UTCTimestamp?) {
        self.name = name
        self.arn = arn
        self.enqueuedTimestamp = enqueuedTimestamp
    }
}
