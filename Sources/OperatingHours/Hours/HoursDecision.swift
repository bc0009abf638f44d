import Primitives

/// Whether a store is open at an instant, and why; the preview behind every hook answer.
public struct HoursDecision: Hashable, Sendable {
    /// The instant evaluated, shown in the store's offset.
    public let at: ZonedInstant
    /// Whether the store is open.
    public let isOpen: Bool
    /// The business day whose rules decided: the day the open span started on (a Friday for
    /// 01:30 on Saturday within `17:00-26:00`), else the local date.
    public let day: DaySchedule
    /// The span open now, when open.
    public let openSpan: OpeningSpan?
    /// When the store closes, when open (after chaining spans that touch or overlap); `nil` when
    /// closed, or open without a break within the search horizon.
    public let closesAt: ZonedInstant?
    /// When the store next opens: the next opening after now when closed, or the first opening
    /// after ``closesAt`` when open; `nil` when none within ``StoreSchedule/nextOpeningSearchDays``.
    public let nextOpenAt: ZonedInstant?

    /// Creates a decision.
    public init(
        at: ZonedInstant, isOpen: Bool, day: DaySchedule, openSpan: OpeningSpan?,
        closesAt: ZonedInstant?, nextOpenAt: ZonedInstant?
    ) {
        self.at = at
        self.isOpen = isOpen
        self.day = day
        self.openSpan = openSpan
        self.closesAt = closesAt
        self.nextOpenAt = nextOpenAt
    }

    /// The day type of ``day``.
    public var dayType: DayType { day.dayType }

    /// The Japanese (local) name of the business day's holiday, or `nil`.
    public var holidayName: String? { day.holiday?.nameJa }

    /// The closure's or override's name when one decided the day, else `nil`.
    public var closureName: String? {
        day.dayType == .closure || day.dayType == .override ? day.name : nil
    }

    /// Whole minutes until ``closesAt`` (rounded down), when open.
    public var minutesUntilClose: Int? {
        guard let closesAt else { return nil }
        return Int((closesAt.secondsSinceEpoch - at.secondsSinceEpoch) / 60)
    }
}
