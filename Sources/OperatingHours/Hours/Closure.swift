import Primitives

/// A named period during which a store is closed, e.g. the year-end holidays.
public struct Closure: Hashable, Sendable {
    /// When the closure applies.
    public enum Period: Hashable, Sendable {
        /// Every year from one month-day to another, inclusive; wraps the year end when the end
        /// comes before the start (`12-31` to `01-03`).
        case annual(startMonth: Int, startDay: Int, endMonth: Int, endDay: Int)
        /// From one date to another, inclusive.
        case dates(CivilDate, CivilDate)
    }

    /// The name reported to flows, e.g. `年末年始休業`.
    public let name: String
    /// When the closure applies.
    public let period: Period

    /// Creates a closure.
    public init(name: String, period: Period) {
        self.name = name
        self.period = period
    }

    /// Whether the closure covers a date.
    @inline(__always)
    public func contains(dayNumber: Int, monthDay: Int) -> Bool {
        switch period {
        case .annual(let startMonth, let startDay, let endMonth, let endDay):
            let start = startMonth * 100 + startDay
            let end = endMonth * 100 + endDay
            return start <= end ? (start...end).contains(monthDay) : (monthDay >= start || monthDay <= end)
        case .dates(let first, let last):
            return dayNumber >= first.dayNumber && dayNumber <= last.dayNumber
        }
    }

    /// Whether the closure covers a date.
    public func contains(_ date: CivilDate) -> Bool {
        contains(dayNumber: date.dayNumber, monthDay: date.month * 100 + date.day)
    }

    /// Whether the period repeats every year (and so needs the month and day to test).
    public var isAnnual: Bool {
        if case .annual = period { return true }
        return false
    }
}
