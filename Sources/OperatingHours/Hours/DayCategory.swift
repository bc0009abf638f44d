import Primitives

/// The special rules that can decide a business day's hours, ranked by a store's precedence.
///
/// The default order is ``defaultPrecedence``: override > closure > holiday > pre_holiday, and the
/// weekly hours when none applies. The first category in the order that applies to a date decides
/// the day type; its hours are used, or the weekly hours of that weekday when the profile
/// defines none for it (a holiday at a store without holiday hours keeps its weekly hours but is
/// still reported as `holiday`).
public enum DayCategory: String, Hashable, Sendable, CaseIterable {
    /// A one-off override for the date.
    case override
    /// A named closure covering the date.
    case closure
    /// The date is a holiday.
    case holiday
    /// The next date is a holiday.
    case preHoliday = "pre_holiday"

    /// override > closure > holiday > pre_holiday.
    public static let defaultPrecedence: [DayCategory] = [.override, .closure, .holiday, .preHoliday]
}

extension DayCategory {
    /// The day type a holiday calendar alone gives `date`: the first of `precedence`'s
    /// calendar categories (holiday, pre-holiday) that applies, else weekend or weekday.
    ///
    /// Overrides and closures belong to a store's profile and are skipped here; a store's own
    /// day type is ``StoreSchedule/day(_:)``'s, which ranks by the same precedence.
    public static func calendarDayType(
        of date: CivilDate, calendar: any HolidayCalendar, precedence: [DayCategory] = defaultPrecedence
    ) -> DayType {
        for category in precedence {
            switch category {
            case .override, .closure: continue
            case .holiday: if calendar.holiday(on: date) != nil { return .holiday }
            case .preHoliday: if calendar.isPreHoliday(date) { return .preHoliday }
            }
        }
        return date.weekday.isWeekend ? .weekend : .weekday
    }
}
