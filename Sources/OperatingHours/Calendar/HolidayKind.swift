/// Why a day is a holiday.
public enum HolidayKind: String, Hashable, Sendable, CaseIterable {
    /// A national holiday named by law (国民の祝日), including days moved by special laws.
    case national
    /// A substitute holiday (振替休日) after a national holiday falling on a Sunday.
    case substitute
    /// A citizens' holiday (国民の休日): a day sandwiched between two national holidays.
    case citizens
    /// A one-off holiday set by a special law (a wedding, funeral or enthronement), or a day
    /// declared in `flows/`.
    case oneOff = "one_off"
}
