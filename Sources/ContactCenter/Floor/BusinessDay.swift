import Foundation

/// A calendar day in the floor's time zone, with the UTC instants it spans.
public struct BusinessDay: Sendable, Hashable, CustomStringConvertible {
    /// The day as `YYYY-MM-DD`, e.g. `2026-11-20`.
    public var date: String
    /// Midnight at the start of the day.
    public var start: UTCTimestamp
    /// Midnight at the start of the next day (exclusive).
    public var end: UTCTimestamp

    /// The day containing `instant` in `timeZone` (handles 23- and 25-hour days).
    public init(containing instant: UTCTimestamp, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startDate = calendar.startOfDay(for: instant.date)
        let endDate = calendar.date(byAdding: .day, value: 1, to: startDate) ?? startDate.addingTimeInterval(86_400)
        let parts = calendar.dateComponents([.year, .month, .day], from: startDate)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        date = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
        start = UTCTimestamp(startDate)
        end = UTCTimestamp(endDate)
    }

    /// Whether `instant` falls within the day.
    public func contains(_ instant: UTCTimestamp) -> Bool { start <= instant && instant < end }

    public var description: String { date }
}
