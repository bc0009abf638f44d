import Primitives

/// What a backtest is asked for, validated: the weeks of days before a date, each forecast from
/// the history before it.
public struct StaffingBacktestRequest: Sendable, Equatable {
    /// The most weeks a backtest covers (two years).
    public static let maximumWeeks = 104

    /// How many weeks of days before ``before`` to forecast.
    public let weeks: Int
    /// The first day not forecast (today).
    public let before: CivilDate
    /// One queue's id; nil: every queue.
    public let queue: String?

    /// - Throws: `StaffingRequestError` for weeks outside `1...maximumWeeks`.
    public init(weeks: Int, before: CivilDate, queue: String?) throws(StaffingRequestError) {
        guard (1...Self.maximumWeeks).contains(weeks) else {
            throw StaffingRequestError(.weeks, .weeksOutOfRange(weeks, maximum: Self.maximumWeeks))
        }
        self.weeks = weeks
        self.before = before
        self.queue = queue
    }

    /// The days forecast, oldest first.
    public var days: [CivilDate] {
        (1...(weeks * 7)).reversed().map { before.adding(days: -$0) }
    }
}
