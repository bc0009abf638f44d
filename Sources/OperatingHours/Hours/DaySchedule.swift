import Primitives

/// The effective hours of one business day after every rule has been applied.
public struct DaySchedule: Hashable, Sendable {
    /// The business day.
    public let date: CivilDate
    /// What decided the day's hours.
    public let dayType: DayType
    /// The closure's or override's name, or the holiday's Japanese name for a `holiday` day.
    public let name: String?
    /// The holiday on this date, whatever the day type (a closure on 1/1 still has 元日).
    public let holiday: Holiday?
    /// The openings of the day, sorted; empty when closed all day. Overnight spans end past 24:00.
    public let spans: [OpeningSpan]

    /// Creates a day schedule.
    public init(date: CivilDate, dayType: DayType, name: String?, holiday: Holiday?, spans: [OpeningSpan]) {
        self.date = date
        self.dayType = dayType
        self.name = name
        self.holiday = holiday
        self.spans = spans
    }

    /// Whether the store does not open at all that day.
    public var isClosedAllDay: Bool { spans.isEmpty }
}
