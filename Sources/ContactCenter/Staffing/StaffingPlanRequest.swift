import Primitives

/// What a staffing plan is asked for, validated: the one request the command line, the HTTP API
/// and the planner share.
///
/// Built from typed values (``init(dates:queue:model:target:shrinkage:)``) or from the text a
/// caller received (``init(from:to:queue:model:serviceLevel:maximumOccupancy:shrinkage:)``);
/// either way every check happens here, once.
public struct StaffingPlanRequest: Sendable, Equatable {
    /// The longest range a plan may cover, days (the command line's; an HTTP request's is
    /// ``maximumDaysPerHTTPRequest``).
    public static let maximumDays = 400
    /// The longest range one HTTP request may ask for: a month, about a second of one core for
    /// twenty queues.
    public static let maximumDaysPerHTTPRequest = 31

    /// The business dates to plan.
    public let dates: ClosedRange<CivilDate>
    /// One queue (its id or name); nil: every queue with recent history.
    public let queue: String?
    /// Erlang A (patience from the history) or Erlang C.
    public let model: StaffingPlan.ModelChoice
    /// The service level (and optional occupancy cap) every slot is staffed for.
    public let target: ServiceTarget
    /// Share of paid time off the queue, [0, 0.9].
    public let shrinkage: Double

    /// A request of typed values.
    /// - Throws: `StaffingRequestError` for a range over ``maximumDays`` or a shrinkage out of range.
    public init(
        dates: ClosedRange<CivilDate>, queue: String?, model: StaffingPlan.ModelChoice, target: ServiceTarget,
        shrinkage: Double
    ) throws(StaffingRequestError) {
        try Self.check(dates)
        do {
            _ = try Shrinkage.scheduled(productive: 0, shrinkage: shrinkage)
        } catch {
            throw StaffingRequestError(.shrinkage, .invalid(error))
        }
        self.dates = dates
        self.queue = queue
        self.model = model
        self.target = target
        self.shrinkage = shrinkage
    }

    /// A request from text, as a command line or a query string gives it.
    /// - Parameters:
    ///   - from: The first business date, `YYYY-MM-DD`.
    ///   - to: The last business date (inclusive); nil: `from`.
    ///   - queue: One queue (its id or name), or nil.
    ///   - model: `erlang-a` (nil) or `erlang-c`.
    ///   - serviceLevel: `P/X`, e.g. `80/20`.
    ///   - maximumOccupancy: [0.5, 1], or nil.
    ///   - shrinkage: [0, 0.9], nil: 0.
    ///   - maximumDays: The longest range this caller may ask for, at most ``maximumDays``.
    /// - Throws: `StaffingRequestError` naming the first field at fault.
    public init(
        from: String, to: String?, queue: String?, model: String?, serviceLevel: String, maximumOccupancy: String?,
        shrinkage: String?, maximumDays: Int = Self.maximumDays
    ) throws(StaffingRequestError) {
        let first = try Self.date(from, .from)
        let last = try to.map { text throws(StaffingRequestError) in try Self.date(text, .to) } ?? first
        guard first <= last else { throw StaffingRequestError(.from, .startsAfterEnd(first, last)) }
        try Self.check(first...last, maximum: min(maximumDays, Self.maximumDays))
        let modelName = model ?? StaffingPlan.ModelChoice.erlangA.rawValue
        guard let choice = StaffingPlan.ModelChoice(rawValue: modelName) else {
            throw StaffingRequestError(.model, .unknownModel(modelName))
        }
        let occupancy = try maximumOccupancy.map { text throws(StaffingRequestError) in
            try Self.number(text, .maximumOccupancy)
        }
        let target: ServiceTarget
        do {
            target = try ServiceTarget(parsing: serviceLevel, maximumOccupancy: occupancy)
        } catch .maximumOccupancyOutOfRange(let value) {
            throw StaffingRequestError(.maximumOccupancy, .invalid(.maximumOccupancyOutOfRange(value)))
        } catch {
            throw StaffingRequestError(.serviceLevel, .invalid(error))
        }
        try self.init(
            dates: first...last, queue: queue, model: choice, target: target,
            shrinkage: try shrinkage.map { text throws(StaffingRequestError) in try Self.number(text, .shrinkage) } ?? 0
        )
    }

    /// Refuses a range of more than `maximum` days.
    static func check(_ dates: ClosedRange<CivilDate>, maximum: Int = maximumDays) throws(StaffingRequestError) {
        let days = dates.upperBound.dayNumber - dates.lowerBound.dayNumber + 1
        guard days <= maximum else {
            throw StaffingRequestError(
                .to, .rangeTooLong(dates.lowerBound, dates.upperBound, days: days, maximum: maximum))
        }
    }

    static func date(_ text: String, _ field: StaffingRequestError.Field) throws(StaffingRequestError) -> CivilDate {
        guard let date = CivilDate(parsing: text) else { throw StaffingRequestError(field, .notADate(text)) }
        return date
    }

    static func number(_ text: String, _ field: StaffingRequestError.Field) throws(StaffingRequestError) -> Double {
        guard let value = Double(text), value.isFinite else { throw StaffingRequestError(field, .notANumber(text)) }
        return value
    }
}
