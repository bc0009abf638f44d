import Primitives

/// A calendar with extra days added and days removed, as declared in `flows/` (so a new special
/// law needs no release).
///
/// The result is materialized into a ``HolidayTable`` at init: lookups stay constant time.
public struct AdjustedHolidayCalendar: HolidayCalendar {
    /// The days added (they replace the base calendar's holiday on the same date).
    public let additions: [Holiday]
    /// The dates removed from the base calendar.
    public let removals: [CivilDate]
    private let table: HolidayTable

    /// Applies additions and removals to a base calendar.
    ///
    /// - Important: Substitute and citizens' holidays are not re-derived: declaring a holiday that
    ///   falls on a Sunday does not add a substitute day; declare it too.
    public init(base: some HolidayCalendar, additions: [Holiday], removals: [CivilDate]) {
        self.additions = additions
        self.removals = removals
        let removed = Set(removals.map(\.dayNumber))
        let added = Dictionary(additions.map { ($0.date.dayNumber, $0) }, uniquingKeysWith: { _, last in last })
        let addedYears = additions.map(\.date.year)
        let lower = min(base.supportedYears.lowerBound, addedYears.min() ?? Int.max)
        let upper = max(base.supportedYears.upperBound, addedYears.max() ?? Int.min)
        let first = CivilDate.dayNumber(year: lower, month: 1, day: 1)
        let last = CivilDate.dayNumber(year: upper, month: 12, day: 31)
        let merged = (first...last).lazy.compactMap { day -> Holiday? in
            if let holiday = added[day] { return holiday }
            if removed.contains(day) { return nil }
            return base.holiday(onDayNumber: day)
        }
        self.table = HolidayTable(holidays: merged, years: lower...upper)
    }

    /// The years this calendar answers for.
    public var supportedYears: ClosedRange<Int> { table.supportedYears }

    /// The holiday on a day, or `nil`.
    @inline(__always)
    public func holiday(onDayNumber dayNumber: Int) -> Holiday? {
        table.holiday(onDayNumber: dayNumber)
    }
}
