/// A named IVR route: ordered rules, the first match wins, else the default outputs.
public final class Flow: Sendable {
    /// The name the IVR calls it by, e.g. `main`.
    public let name: String
    /// A human description.
    public let summary: String
    /// The rules, in order.
    public let rules: [FlowRule]
    /// The outputs when no rule matches.
    public let defaultOutputs: [OutputTemplate]

    /// The rule name reported when the default applies.
    public static let defaultRuleName = "default"

    /// Creates a flow.
    public init(name: String, summary: String, rules: [FlowRule], defaultOutputs: [OutputTemplate]) {
        self.name = name
        self.summary = summary
        self.rules = rules
        self.defaultOutputs = defaultOutputs
    }

    /// The first rule matching, or `nil` for the default.
    public func matchingRule(decision: HoursDecision, store: Store, contactAttributes: [String: String]) -> FlowRule? {
        rules.first { $0.condition.matches(decision: decision, store: store, contactAttributes: contactAttributes) }
    }
}
