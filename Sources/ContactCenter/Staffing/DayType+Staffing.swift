import Primitives

extension DayType {
    /// How notes name a set of such days: "pre-holidays".
    public var plural: String {
        switch self {
        case .weekday: "weekdays"
        case .weekend: "weekends"
        case .holiday: "holidays"
        case .preHoliday: "pre-holidays"
        case .closure: "closures"
        case .override: "overrides"
        }
    }

    /// Whether days of this type may be baselines (closures and overrides never are).
    public var isBaseline: Bool { self != .closure && self != .override }

    /// The day types tried, in order, for a day of this type whose own history is empty.
    /// - Parameter weekend: Whether the day falls on Saturday or Sunday (an override day
    ///   follows its weekday).
    public func fallbacks(weekend: Bool) -> [DayType] {
        switch self {
        case .weekday: [.weekday, .weekend]
        case .weekend: [.weekend, .weekday]
        case .holiday: [.holiday, .weekend, .weekday]
        case .preHoliday: [.preHoliday, .weekday, .weekend]
        case .override: weekend ? [.weekend, .weekday] : [.weekday, .weekend]
        case .closure: []
        }
    }
}
