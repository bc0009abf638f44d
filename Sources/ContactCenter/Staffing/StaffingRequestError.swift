import Primitives

/// A staffing request refused before any work: which field, and what is wrong with it.
///
/// Each caller names the field its own way (`--service-level` on the command line,
/// `service_level` in a query string) through ``message(naming:)``; the problem's wording is the
/// same everywhere.
public struct StaffingRequestError: Error, Equatable, Sendable {
    /// A field of a staffing request.
    public enum Field: String, Sendable, CaseIterable {
        case from, to, queue, model, serviceLevel, maximumOccupancy, shrinkage, weeks
    }

    /// What is wrong.
    public enum Problem: Equatable, Sendable {
        /// Not a `YYYY-MM-DD` date of the calendar.
        case notADate(String)
        /// Not a finite number.
        case notANumber(String)
        /// Neither `erlang-a` nor `erlang-c`.
        case unknownModel(String)
        /// The first date is after the last.
        case startsAfterEnd(CivilDate, CivilDate)
        /// The range from the first date to the last covers more days than a plan may.
        case rangeTooLong(CivilDate, CivilDate, days: Int, maximum: Int)
        /// Out of the staffing math's range (or a service level written other than `P/X`).
        case invalid(StaffingError)
        /// No queue of that id or name has history; `known` lists the queues that do.
        case unknownQueue(String, known: [String])
        /// A backtest's weeks outside `1...maximum`.
        case weeksOutOfRange(Int, maximum: Int)
    }

    /// The field at fault.
    public var field: Field
    /// What is wrong with it.
    public var problem: Problem

    /// A refusal of `field` for `problem`.
    public init(_ field: Field, _ problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// The refusal in words, each field called as `name` calls it.
    public func message(naming name: (Field) -> String) -> String {
        switch problem {
        case .notADate(let text): "\(name(field)) must be a date YYYY-MM-DD (got \(text))"
        case .notANumber(let text): "\(name(field)) must be a number (got \(text))"
        case .unknownModel(let text): "\(name(field)) must be erlang-a or erlang-c (got \(text))"
        case .startsAfterEnd(let first, let last): "\(name(.from)) \(first) is after \(name(.to)) \(last)"
        case .rangeTooLong(let first, let last, let days, let maximum):
            "the range \(first)...\(last) (\(name(.from)), \(name(.to))) covers \(days) days: at most \(maximum) at once"
        case .invalid(let error): "\(error.description) (\(name(field)))"
        case .unknownQueue(let queue, let known):
            "unknown \(name(field)) \(queue): queues with history are \(known.joined(separator: ", "))"
        case .weeksOutOfRange(let weeks, let maximum): "\(name(field)) must be within 1...\(maximum) (got \(weeks))"
        }
    }
}
