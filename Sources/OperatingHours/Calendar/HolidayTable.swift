import Primitives

/// An immutable, constant-time holiday lookup over a range of years.
///
/// One slot per day of the range holds the index of that day's holiday (0 = none), so a lookup is
/// one bounds check and one array read. The table for 1948...2150 takes about 150 KB.
public struct HolidayTable: HolidayCalendar {
    /// The years covered.
    public let supportedYears: ClosedRange<Int>
    private let firstDay: Int
    private let slots: [UInt16]
    private let entries: [Holiday]

    /// Builds a table from holidays; holidays outside `years` are ignored, and when two share a
    /// date the last one wins.
    public init(holidays: some Sequence<Holiday>, years: ClosedRange<Int>) {
        let first = CivilDate.dayNumber(year: years.lowerBound, month: 1, day: 1)
        let last = CivilDate.dayNumber(year: years.upperBound, month: 12, day: 31)
        var slots = [UInt16](repeating: 0, count: last - first + 1)
        var entries: [Holiday] = []
        for holiday in holidays {
            let day = holiday.date.dayNumber
            guard day >= first, day <= last else { continue }
            if slots[day - first] != 0 {
                entries[Int(slots[day - first]) - 1] = holiday
            } else if entries.count < Int(UInt16.max) {
                entries.append(holiday)
                slots[day - first] = UInt16(entries.count)
            }
        }
        self.supportedYears = years
        self.firstDay = first
        self.slots = slots
        self.entries = entries
    }

    /// Materializes another calendar over its supported years (or `years` when given).
    public init(materializing calendar: some HolidayCalendar, years: ClosedRange<Int>? = nil) {
        let range = years ?? calendar.supportedYears
        let first = CivilDate.dayNumber(year: range.lowerBound, month: 1, day: 1)
        let last = CivilDate.dayNumber(year: range.upperBound, month: 12, day: 31)
        self.init(holidays: (first...last).lazy.compactMap { calendar.holiday(onDayNumber: $0) }, years: range)
    }

    /// The holiday on a day, or `nil`.
    @inline(__always)
    public func holiday(onDayNumber dayNumber: Int) -> Holiday? {
        let offset = dayNumber - firstDay
        guard offset >= 0, offset < slots.count else { return nil }
        let slot = slots[offset]
        return slot == 0 ? nil : entries[Int(slot) - 1]
    }

    /// Every holiday of the table, in date order.
    public var allHolidays: [Holiday] {
        entries.sorted { $0.date < $1.date }
    }
}
