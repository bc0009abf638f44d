import Primitives

/// One opening of a business day, in minutes after that day's local midnight.
///
/// Spans past midnight are written `17:00-02:00` or `17:00-26:00` (both give `end` = 1560): they
/// belong to the business day they start on, so at 01:30 on a Saturday a Friday span to 26:00
/// applies. The span is half-open: open at `start`, closed at `end`.
public struct OpeningSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Minutes after the business day's midnight at which the store opens, 0..<1440.
    public let start: Int
    /// Minutes after the business day's midnight at which it closes, `start < end <= start + 1440`.
    public let end: Int

    /// Creates a span, or `nil` when `start` is not within the day or the span is empty or longer
    /// than 24 hours.
    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), end > start, end - start <= 1440 else { return nil }
        self.start = start
        self.end = end
    }

    /// Parses `HH:MM-HH:MM`; an end at or before the start means the next day.
    ///
    /// - Throws: ``HoursFormatError`` naming what is wrong and how to write it.
    public init(parsing text: String) throws(HoursFormatError) {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .badSpan(text) }
        guard let start = OpeningSpan.minutes(parts[0].trimmingSpaces), start < 1440 else {
            throw .badTime(String(parts[0].trimmingSpaces))
        }
        guard var end = OpeningSpan.minutes(parts[1].trimmingSpaces), end <= 2880 else {
            throw .badTime(String(parts[1].trimmingSpaces))
        }
        if end == start { throw .emptySpan(text) }
        if end < start {
            guard end < 1440 else { throw .spanTooLong(text) }
            end += 1440
        }
        guard let span = OpeningSpan(start: start, end: end) else { throw .spanTooLong(text) }
        self = span
    }

    /// Parses `HH:MM` with hours 0...48 and minutes 0...59 into minutes, or `nil`.
    public static func minutes(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 4, bytes[bytes.count - 3] == UInt8(ascii: ":"),
            let hours = DecimalDigits.value(of: bytes[0..<(bytes.count - 3)]),
            let minutes = DecimalDigits.value(of: bytes[(bytes.count - 2)...]),
            hours <= 48, minutes <= 59, hours * 60 + minutes <= 2880
        else { return nil }
        return hours * 60 + minutes
    }

    /// Formats minutes as `HH:MM` (hours may exceed 23).
    public static func clock(_ minutes: Int) -> String {
        DecimalDigits.twoDigits(minutes / 60) + ":" + DecimalDigits.twoDigits(minutes % 60)
    }

    /// Whether the span ends after the business day's midnight.
    public var crossesMidnight: Bool { end > 1440 }

    /// Whether two spans share any minute.
    public func overlaps(_ other: OpeningSpan) -> Bool {
        start < other.end && other.start < end
    }

    /// `HH:MM-HH:MM`, with the end past 24:00 for overnight spans (`17:00-26:00`).
    public var description: String {
        OpeningSpan.clock(start) + "-" + OpeningSpan.clock(end)
    }

    public static func < (lhs: OpeningSpan, rhs: OpeningSpan) -> Bool {
        (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }
}

extension StringProtocol {
    var trimmingSpaces: Substring {
        let scalars = Substring(self)
        guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return scalars[first...last]
    }
}
