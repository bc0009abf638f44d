/// What kind of day a business day is, as the IVR hook reports it to flows and analysts
/// (`store_business_day.day_type`) and as staffing forecasts it.
///
/// Ordered as declared: a label of several day types lists them in this order.
public enum DayType: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Monday to Friday, no special rule.
    case weekday
    /// Saturday or Sunday, no special rule.
    case weekend
    /// A holiday of the store's calendar.
    case holiday
    /// The day before a holiday.
    case preHoliday = "pre_holiday"
    /// A named closure of the store.
    case closure
    /// A one-off override of the store's hours for that date.
    case override

    /// Declared earlier.
    public static func < (lhs: DayType, rhs: DayType) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .weekday: 0
        case .weekend: 1
        case .holiday: 2
        case .preHoliday: 3
        case .closure: 4
        case .override: 5
        }
    }
}
