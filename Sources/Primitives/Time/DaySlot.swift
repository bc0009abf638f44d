/// A 15-minute slot of a business day, counted from the day's midnight: slot 0 starts at 00:00,
/// slot 95 at 23:45; 96 and later are past midnight (a store open until 01:00 has slots 96...99).
///
/// Forecasts, plans and the history count contacts per slot; a slot starts `index × 15` minutes
/// after its business date's midnight in the business time zone.
public struct DaySlot: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes per slot.
    public static let minutes = 15
    /// Slots from midnight to midnight.
    public static let perDay = 96

    /// The slot's number from the business day's midnight, 0 or more.
    public let index: Int

    /// The slot numbered `index` from the business day's midnight.
    public init(_ index: Int) {
        self.index = index
    }

    /// The slot holding `minutes` minutes after the business day's midnight.
    public init(minutesAfterMidnight minutes: Int) {
        index = minutes / Self.minutes
    }

    /// Seconds from the business day's midnight to the slot's start.
    public var secondsAfterMidnight: Int { index * Self.minutes * 60 }

    /// `HH:MM` of the slot's start from the business day's midnight (`25:00` past midnight).
    public var clock: String {
        let minutes = index * Self.minutes
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// ``clock``.
    public var description: String { clock }

    /// Earlier in the business day.
    public static func < (lhs: DaySlot, rhs: DaySlot) -> Bool { lhs.index < rhs.index }
}
