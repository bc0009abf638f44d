import Primitives

/// The `when:` of a flow rule: every test given must pass (an empty condition always matches).
public struct RuleCondition: Hashable, Sendable {
    /// Open (`true`) or closed (`false`).
    public var isOpen: Bool?
    /// The day type must be one of these.
    public var dayTypes: Set<DayType>?
    /// Open, and fewer than this many whole minutes until close (`minutesUntilCloseBelow: 15`).
    public var minutesUntilCloseBelow: Int?
    /// The store must be one of these ids.
    public var storeIds: Set<String>?
    /// Tests of the store's attributes.
    public var storeAttributes: [AttributeTest]
    /// Tests of the contact's attributes (from the IVR).
    public var contactAttributes: [AttributeTest]

    /// Creates a condition.
    public init(
        isOpen: Bool? = nil, dayTypes: Set<DayType>? = nil, minutesUntilCloseBelow: Int? = nil,
        storeIds: Set<String>? = nil, storeAttributes: [AttributeTest] = [], contactAttributes: [AttributeTest] = []
    ) {
        self.isOpen = isOpen
        self.dayTypes = dayTypes
        self.minutesUntilCloseBelow = minutesUntilCloseBelow
        self.storeIds = storeIds
        self.storeAttributes = storeAttributes
        self.contactAttributes = contactAttributes
    }

    /// Whether a decision for a store and contact passes every test.
    public func matches(decision: HoursDecision, store: Store, contactAttributes contact: [String: String]) -> Bool {
        if let isOpen, decision.isOpen != isOpen { return false }
        if let dayTypes, !dayTypes.contains(decision.dayType) { return false }
        if let limit = minutesUntilCloseBelow {
            guard let minutes = decision.minutesUntilClose, minutes < limit else { return false }
        }
        if let storeIds, !storeIds.contains(store.id) { return false }
        for test in storeAttributes where !test.matches(store.attributes) { return false }
        for test in contactAttributes where !test.matches(contact) { return false }
        return true
    }
}
