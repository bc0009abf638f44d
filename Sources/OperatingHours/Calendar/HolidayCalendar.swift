import Primitives

/// A source of holidays: the Japanese national holidays, a list for a store outside Japan, or
/// either of them adjusted by the additions and removals declared in `flows/`.
///
/// Implementations must answer `holiday(onDayNumber:)` in constant time without allocating: the
/// hours evaluator calls it several times per evaluation.
public protocol HolidayCalendar: Sendable {
    /// The holiday on a day (days since 1970-01-01), or `nil`.
    func holiday(onDayNumber dayNumber: Int) -> Holiday?

    /// The years this calendar knows; outside them `holiday(onDayNumber:)` answers `nil`.
    var supportedYears: ClosedRange<Int> { get }
}

extension HolidayCalendar {
    /// The holiday on a date, or `nil`.
    public func holiday(on date: CivilDate) -> Holiday? {
        holiday(onDayNumber: date.dayNumber)
    }

    /// Whether a date is a holiday of any kind.
    public func isHoliday(_ date: CivilDate) -> Bool {
        holiday(onDayNumber: date.dayNumber) != nil
    }

    /// Whether the next calendar day is a holiday of any kind (the day is a *pre-holiday*).
    ///
    /// - Important: A day can be both a holiday and a pre-holiday (Golden Week); which hours
    ///   apply is decided by the store's precedence, see ``DayCategory``.
    public func isPreHoliday(_ date: CivilDate) -> Bool {
        holiday(onDayNumber: date.dayNumber + 1) != nil
    }

    /// Every holiday of a year, in date order.
    public func holidays(inYear year: Int) -> [Holiday] {
        let first = CivilDate.dayNumber(year: year, month: 1, day: 1)
        let last = CivilDate.dayNumber(year: year, month: 12, day: 31)
        return (first...last).compactMap { holiday(onDayNumber: $0) }
    }
}
