/// A calendar that is just a list of holidays, for stores outside Japan or for tests.
///
/// No rule is applied: substitute days must be listed like any other day.
public struct ListHolidayCalendar: HolidayCalendar {
    private let table: HolidayTable

    /// Creates a calendar from holidays; when two share a date the last one wins.
    ///
    /// - Parameters:
    ///   - holidays: The holidays.
    ///   - years: The years the calendar answers for; by default the span of the list
    ///     (or 1970...2150 when the list is empty).
    public init(holidays: [Holiday], years: ClosedRange<Int>? = nil) {
        let range: ClosedRange<Int>
        if let years {
            range = years
        } else if let minYear = holidays.map(\.date.year).min(), let maxYear = holidays.map(\.date.year).max() {
            range = minYear...maxYear
        } else {
            range = 1970...2150
        }
        self.table = HolidayTable(holidays: holidays, years: range)
    }

    /// The years this calendar answers for.
    public var supportedYears: ClosedRange<Int> { table.supportedYears }

    /// The holiday on a day, or `nil`.
    @inline(__always)
    public func holiday(onDayNumber dayNumber: Int) -> Holiday? {
        table.holiday(onDayNumber: dayNumber)
    }
}
