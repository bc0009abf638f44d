import Primitives

/// One store's weighted history of one day type for one queue: the sums over its baseline days
/// (each day weighted, recent days more) per 15-minute slot of the business day.
public struct StaffingBaseline: Sendable, Equatable {
    /// Σ weights of the baseline days (0: no day of this type in the history).
    public var weight: Double
    /// Baseline days.
    public var days: Int
    /// Per slot: Σ weight × offered contacts.
    public var offered: [DaySlot: Double]
    /// Per slot: Σ weight × handle seconds of answered contacts.
    public var handleSeconds: [DaySlot: Double]
    /// Per slot: Σ weight × answered contacts with a handle time.
    public var handled: [DaySlot: Double]

    /// A baseline.
    public init(
        weight: Double, days: Int, offered: [DaySlot: Double] = [:], handleSeconds: [DaySlot: Double] = [:],
        handled: [DaySlot: Double] = [:]
    ) {
        self.weight = weight
        self.days = days
        self.offered = offered
        self.handleSeconds = handleSeconds
        self.handled = handled
    }
}

extension StaffingBaseline {
    /// Adds one baseline day of weight `weight`: its slots with queued contacts and, in the same
    /// order, their offered contacts, handle seconds and handled contacts.
    public mutating func add(
        day weight: Double, slots: [Int], offered: [Double], handleSeconds: [Double], handled: [Double]
    ) {
        self.weight += weight
        days += 1
        for (index, slot) in slots.enumerated() {
            self.offered[DaySlot(slot), default: 0] += weight * offered[index]
            self.handleSeconds[DaySlot(slot), default: 0] += weight * handleSeconds[index]
            self.handled[DaySlot(slot), default: 0] += weight * handled[index]
        }
    }
}

extension StaffingBaseline {
    /// Adds `other`'s days and sums.
    mutating func merge(_ other: StaffingBaseline) {
        weight += other.weight
        days += other.days
        offered.merge(other.offered, uniquingKeysWith: +)
        handleSeconds.merge(other.handleSeconds, uniquingKeysWith: +)
        handled.merge(other.handled, uniquingKeysWith: +)
    }
}

/// Where a baseline belongs: a queue, a store feeding it, a day type and, for the ordinary day
/// types (weekday, weekend), the weekday: a Friday is forecast from Fridays, whose hours and
/// traffic are a Friday's, not from the week's other weekdays. Holidays and pre-holidays are
/// pooled over weekdays, but by their opening hours (`hours`, ``StaffingCalendar/hours(of:on:)``):
/// a store without hours of its own for them keeps each weekday's, so a Sunday pre-holiday is
/// forecast from pre-holidays open as that Sunday is. Both nil: the day type's pool.
public struct StaffingBaselineKey: Sendable, Hashable {
    public var queue: String
    public var store: String
    public var dayType: DayType
    public var weekday: Weekday?
    public var hours: String?

    public init(queue: String, store: String, dayType: DayType, weekday: Weekday? = nil, hours: String? = nil) {
        self.queue = queue
        self.store = store
        self.dayType = dayType
        self.weekday = weekday
        self.hours = hours
    }
}

/// What the history says of one queue as a whole.
public struct StaffingQueueHistory: Sendable, Equatable {
    /// The queue's name (nil: only its ARN is known).
    public var name: String?
    /// The stores feeding it.
    public var stores: [String]
    /// Mean handle time over its recent history (nil: nothing handled).
    public var averageHandleTimeSeconds: Double?
    /// Abandoned contacts in its recent history.
    public var abandoned: Int
    /// Σ seconds in queue of all its queued contacts in that history.
    public var queueSeconds: Double

    public init(
        name: String?, stores: [String], averageHandleTimeSeconds: Double?, abandoned: Int, queueSeconds: Double
    ) {
        self.name = name
        self.stores = stores
        self.averageHandleTimeSeconds = averageHandleTimeSeconds
        self.abandoned = abandoned
        self.queueSeconds = queueSeconds
    }

    /// Mean patience 1/θ̂ with θ̂ = abandoned / Σ queue seconds (the censored maximum-likelihood
    /// estimate for exponential patience: answered contacts are censored at their wait); nil
    /// without abandons. At least 1 s (durations are whole seconds).
    public var patienceSeconds: Double? {
        guard abandoned > 0 else { return nil }
        return max(1, queueSeconds / Double(abandoned))
    }
}
