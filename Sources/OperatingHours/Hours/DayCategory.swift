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
