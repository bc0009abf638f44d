/// A date of the proleptic Gregorian calendar, without time or time zone.
///
/// All calendar arithmetic of this module goes through the *day number*: the count of days since
/// 1970-01-01 (negative before). The conversions are Howard Hinnant's `days_from_civil` and
/// `civil_from_days` algorithms, exact for every representable date and free of Foundation.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2026.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...31.
    public let day: Int

    /// Creates a date, or `nil` when the month or day does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the date of a day number (days since 1970-01-01).
    public init(dayNumber: Int) {
        (year, month, day) = CivilDays.civil(dayNumber: dayNumber)
    }

    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int {
        CivilDate.dayNumber(year: year, month: month, day: day)
    }

    /// The day of the week.
    public var weekday: Weekday {
        Weekday(dayNumber: dayNumber)
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(dayNumber: dayNumber + days)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let y = year < 0 ? "-" + String(-year) : String(year)
        let paddedYear = y.count >= 4 ? y : String(repeating: "0", count: 4 - y.count) + y
        return paddedYear + "-" + DecimalDigits.twoDigits(month) + "-" + DecimalDigits.twoDigits(day)
    }

    /// Parses `YYYY-MM-DD` (exactly four year digits), or returns `nil`.
    public init?(parsing text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let y = DecimalDigits.value(of: bytes[0..<4]), let m = DecimalDigits.value(of: bytes[5..<7]),
            let d = DecimalDigits.value(of: bytes[8..<10])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The day number of a civil date (days since 1970-01-01).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        CivilDays.dayNumber(year: year, month: month, day: day)
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        CivilDays.isLeapYear(year)
    }

    /// The number of days of a month.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        CivilDays.daysInMonth(year: year, month: month)
    }
}
