/// One rule of a flow: when its condition matches, its outputs are the route.
public struct FlowRule: Hashable, Sendable {
    /// The rule's name (reported as `rule` in the answer).
    public let name: String
    /// The condition.
    public let condition: RuleCondition
    /// The outputs.
    public let outputs: [OutputTemplate]

    /// Creates a rule.
    public init(name: String, condition: RuleCondition, outputs: [OutputTemplate]) {
        self.name = name
        self.condition = condition
        self.outputs = outputs
    }
}
