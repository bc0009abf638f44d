/// A day of the week; raw values follow the ISO-less convention Sunday = 0 ... Saturday = 6.
public enum Weekday: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case sunday = 0
    case monday, tuesday, wednesday, thursday, friday, saturday

    /// The weekday of a day number (days since 1970-01-01, a Thursday).
    @inlinable
    public init(dayNumber: Int) {
        let r = (dayNumber + 4) % 7
        self = Weekday(rawValue: r < 0 ? r + 7 : r) ?? .sunday
    }

    /// Saturday or Sunday.
    public var isWeekend: Bool { self == .saturday || self == .sunday }

    /// The three-letter key used in `flows/`: `mon`, `tue`, ...
    public var key: String {
        switch self {
        case .sunday: "sun"
        case .monday: "mon"
        case .tuesday: "tue"
        case .wednesday: "wed"
        case .thursday: "thu"
        case .friday: "fri"
        case .saturday: "sat"
        }
    }

    /// The English name, e.g. `Monday`.
    public var description: String {
        switch self {
        case .sunday: "Sunday"
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        }
    }

    /// Parses `mon` or `monday` (any case), or returns `nil`.
    public init?(key: some StringProtocol) {
        let lowered = key.lowercased()
        guard let match = Weekday.allCases.first(where: { $0.key == lowered || $0.description.lowercased() == lowered })
        else { return nil }
        self = match
    }
}
