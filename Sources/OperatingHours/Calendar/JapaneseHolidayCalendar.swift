/// Japanese national holidays for 1948-07-20 through 2150, computed by law at init.
///
/// See ``JapaneseHolidayRules`` for the rules. Lookups are constant time; build one instance per
/// process (``standard``) and share it, it is immutable.
public struct JapaneseHolidayCalendar: HolidayCalendar {
    /// The years computed: from the Act's first year to the end of the equinox formulas.
    public static let supportedYears = 1948...2150

    /// The last year whose equinox days were officially announced when this code was written.
    /// The National Astronomical Observatory announces next year's dates each February.
    public static let defaultLastOfficialEquinoxYear = 2027

    /// The shared calendar with the default provisional cut-off.
    public static let standard = JapaneseHolidayCalendar()

    /// Equinox days after this year are marked provisional.
    public let lastOfficialEquinoxYear: Int
    private let table: HolidayTable

    /// Computes the holidays of 1948...2150.
    ///
    /// - Parameter lastOfficialEquinoxYear: Equinox days of later years (and substitute or
    ///   citizens' holidays derived from them) are marked provisional.
    public init(lastOfficialEquinoxYear: Int = JapaneseHolidayCalendar.defaultLastOfficialEquinoxYear) {
        self.lastOfficialEquinoxYear = lastOfficialEquinoxYear
        let years = JapaneseHolidayCalendar.supportedYears
        self.table = HolidayTable(
            holidays: years.flatMap {
                JapaneseHolidayRules.holidays(year: $0, lastOfficialEquinoxYear: lastOfficialEquinoxYear)
            },
            years: years
        )
    }

    /// The years this calendar knows.
    public var supportedYears: ClosedRange<Int> { JapaneseHolidayCalendar.supportedYears }

    /// The holiday on a day, or `nil`.
    @inline(__always)
    public func holiday(onDayNumber dayNumber: Int) -> Holiday? {
        table.holiday(onDayNumber: dayNumber)
    }
}
