import Primitives

/// The business dates a forecast covers and each store's day type on them, as the IVR hook
/// decided them (`store_business_day`).
///
/// A store without a recorded day type on a date has the date's calendar type: weekend on
/// Saturday and Sunday, weekday otherwise.
public struct StaffingCalendar: Sendable, Equatable {
    /// The dates, in order.
    public let dates: [CivilDate]
    private var types: [StoreDate: DayType] = [:]
    private var openingHours: [StoreDate: String] = [:]

    /// The opening hours of a day on which `flows/` opens the store at no time.
    public static let closed = "closed"

    /// A store and a business date.
    private struct StoreDate: Hashable, Sendable {
        var store: String
        var date: CivilDate
    }

    /// Every date of `range`, no store day types yet.
    public init(_ range: ClosedRange<CivilDate>) {
        dates = (range.lowerBound.dayNumber...range.upperBound.dayNumber).map(CivilDate.init(dayNumber:))
    }

    /// Records that `store`'s business day `date` is of type `type`.
    public mutating func set(_ type: DayType, store: String, on date: CivilDate) {
        types[StoreDate(store: store, date: date)] = type
    }

    /// Records `store`'s opening hours on `date`: `HH:MM-HH:MM` (its first opening and last
    /// closing, local) or ``closed``.
    public mutating func setHours(_ hours: String, store: String, on date: CivilDate) {
        openingHours[StoreDate(store: store, date: date)] = hours
    }

    /// `store`'s opening hours on `date`; nil when not known.
    public func hours(of store: String, on date: CivilDate) -> String? {
        openingHours[StoreDate(store: store, date: date)]
    }

    /// `store`'s day type on `date`.
    public func dayType(of store: String, on date: CivilDate) -> DayType {
        types[StoreDate(store: store, date: date)] ?? (date.weekday.isWeekend ? .weekend : .weekday)
    }
}
