import Primitives

/// A request for hours that cannot be answered.
public enum HoursError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The end date is before the start date.
    case invalidRange(from: CivilDate, to: CivilDate)
    /// More days than allowed were asked for.
    case rangeTooLong(days: Int, limit: Int)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case .invalidRange(let from, let to):
            "range \(from)..\(to) ends before it starts; fix: give an end date on or after the start date"
        case .rangeTooLong(let days, let limit):
            "range of \(days) days is too long; fix: ask for at most \(limit) days at a time"
        }
    }
}
