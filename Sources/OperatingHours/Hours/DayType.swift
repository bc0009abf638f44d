/// What kind of day a business day is, as reported to IVR flows and analysts.
public enum DayType: String, Hashable, Sendable, CaseIterable {
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
}
