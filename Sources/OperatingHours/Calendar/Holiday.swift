import Primitives

/// One holiday of a calendar.
public struct Holiday: Hashable, Sendable {
    /// The date.
    public let date: CivilDate
    /// The name in the local language (Japanese for the Japanese calendar), e.g. `元日`.
    public let nameJa: String
    /// The English name, e.g. `New Year's Day`.
    public let nameEn: String
    /// Why the day is a holiday.
    public let kind: HolidayKind
    /// `true` when the date is not yet officially fixed: equinox days (and days derived from
    /// them) of years whose dates the National Astronomical Observatory has not announced.
    public let provisional: Bool

    /// Creates a holiday.
    public init(date: CivilDate, nameJa: String, nameEn: String, kind: HolidayKind, provisional: Bool = false) {
        self.date = date
        self.nameJa = nameJa
        self.nameEn = nameEn
        self.kind = kind
        self.provisional = provisional
    }
}
