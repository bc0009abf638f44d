import Foundation
import Primitives

/// An instant in UTC with millisecond precision, as Amazon Connect writes them.
///
/// Wire form is ISO 8601 / RFC 3339: `2026-11-20T09:15:02Z` (CTRs, EventBridge envelopes) or
/// `2026-11-20T09:15:02.123Z` (agent events). Parsing is hand-written, digit by digit, because
/// the ingest parses hundreds of thousands of timestamps per second and `DateFormatter` or
/// `ISO8601DateFormatter` would dominate the decoding time.
///
/// Accepted: a four-digit year, `T` (or `t`), seconds `00`–`59`, an optional fraction of 1–9
/// digits (kept to the millisecond, further digits truncated), and `Z` or a `±HH:MM` / `±HHMM`
/// offset (converted to UTC). Rejected: anything else, including impossible dates such as
/// February 30 and leap seconds.
///
/// Storage binds timestamps to PostgreSQL `timestamptz` through ``date``.
public struct UTCTimestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a timestamp from a `Date`, rounded to the nearest millisecond.
    public init(_ date: Date) {
        self.millisecondsSince1970 = Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Parses an ISO 8601 timestamp such as `2026-11-20T09:15:02Z` or `2026-11-20T09:15:02.123Z`.
    ///
    /// Returns `nil` when the text is not an accepted timestamp (see the type's documentation).
    public init?(iso8601 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    /// Seconds since the Unix epoch, rounded down.
    public var secondsSince1970: Int64 { millisecondsSince1970.floorDivided(by: 1000) }

    /// The timestamp `seconds` later (earlier when negative).
    public func adding(seconds: Int64) -> UTCTimestamp {
        UTCTimestamp(millisecondsSince1970: millisecondsSince1970 + seconds * 1000)
    }

    /// The timestamp `milliseconds` later (earlier when negative).
    public func adding(milliseconds: Int64) -> UTCTimestamp {
        UTCTimestamp(millisecondsSince1970: millisecondsSince1970 + milliseconds)
    }

    /// Milliseconds from `other` to `self` (positive when `self` is later).
    public func milliseconds(since other: UTCTimestamp) -> Int64 {
        millisecondsSince1970 - other.millisecondsSince1970
    }

    /// The ISO 8601 text in UTC: seconds precision when the milliseconds are zero
    /// (`2026-11-20T09:15:02Z`), otherwise milliseconds (`2026-11-20T09:15:02.123Z`).
    public var iso8601: String { format(alwaysMilliseconds: false) }

    /// The ISO 8601 text in UTC, always with milliseconds (`2026-11-20T09:15:02.000Z`), as the
    /// agent event stream writes `EventTimestamp`.
    public var iso8601Milliseconds: String { format(alwaysMilliseconds: true) }

    public var description: String { iso8601 }

    /// The first instant of this instant's calendar month in UTC (the raw tables' partitions).
    public var monthStart: UTCTimestamp {
        let day = Int(millisecondsSince1970.floorDivided(by: 86_400_000))
        let civil = CivilDays.civil(dayNumber: day)
        let first = CivilDays.dayNumber(year: civil.year, month: civil.month, day: 1)
        return UTCTimestamp(millisecondsSince1970: Int64(first) * 86_400_000)
    }

    public static func < (lhs: UTCTimestamp, rhs: UTCTimestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// Decodes from an ISO 8601 string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not an accepted timestamp.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = UTCTimestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected an ISO 8601 UTC timestamp such as 2026-11-20T09:15:02Z, got \"\(text)\"")
        }
        self = value
    }

    /// Encodes as an ISO 8601 string (``iso8601``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    // MARK: - Parsing

    /// Parses the UTF-8 bytes of a timestamp; `nil` when they are not an accepted timestamp.
    static func parse(_ text: UnsafeRawBufferPointer) -> UTCTimestamp? {
        let count = text.count
        guard count >= 20 else { return nil }
        @inline(__always) func digits(_ at: Int, _ length: Int) -> Int? {
            var value = 0
            for offset in at..<(at + length) {
                let digit = Int(text[offset]) &- 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = digits(0, 4), text[4] == UInt8(ascii: "-"),
            let month = digits(5, 2), text[7] == UInt8(ascii: "-"),
            let day = digits(8, 2), text[10] == UInt8(ascii: "T") || text[10] == UInt8(ascii: "t"),
            let hour = digits(11, 2), text[13] == UInt8(ascii: ":"),
            let minute = digits(14, 2), text[16] == UInt8(ascii: ":"),
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var index = 19
        var milliseconds = 0
        if text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < count, text[index] &- 48 < 10 {
                if index - fractionStart < 3 { milliseconds = milliseconds * 10 + Int(text[index] - 48) }
                index += 1
            }
            let fractionLength = index - fractionStart
            guard fractionLength >= 1, fractionLength <= 9 else { return nil }
            if fractionLength < 3 { for _ in fractionLength..<3 { milliseconds *= 10 } }
        }
        guard index < count else { return nil }
        var offsetMinutes = 0
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard index + 2 <= count, let offsetHours = digits(index, 2) else { return nil }
            index += 2
            if index < count, text[index] == UInt8(ascii: ":") { index += 1 }
            guard index + 2 <= count, let minutes = digits(index, 2), offsetHours < 24, minutes < 60 else {
                return nil
            }
            index += 2
            offsetMinutes = sign * (offsetHours * 60 + minutes)
        default:
            return nil
        }
        guard index == count else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
        return UTCTimestamp(millisecondsSince1970: seconds * 1000 + Int64(milliseconds))
    }

    // MARK: - Civil calendar (Primitives' CivilDays)

    static func daysInMonth(year: Int, month: Int) -> Int {
        CivilDays.daysInMonth(year: year, month: month)
    }

    /// Days since 1970-01-01 of a civil date.
    @inline(__always)
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        Int64(CivilDays.dayNumber(year: year, month: month, day: day))
    }

    /// The civil date of a count of days since 1970-01-01.
    @inline(__always)
    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        CivilDays.civil(dayNumber: Int(days))
    }

    private func format(alwaysMilliseconds: Bool) -> String {
        let totalSeconds = millisecondsSince1970.floorDivided(by: 1000)
        let milliseconds = Int(millisecondsSince1970 - totalSeconds * 1000)
        let days = totalSeconds.floorDivided(by: 86_400)
        let secondOfDay = Int(totalSeconds - days * 86_400)
        let (year, month, day) = Self.civilFromDays(days)
        var out = [UInt8]()
        out.reserveCapacity(24)
        func append(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            for _ in 0..<width {
                out.append(UInt8(48 + (value / divisor) % 10))
                value %= divisor
                divisor /= 10
            }
        }
        append(year, width: 4)
        out.append(UInt8(ascii: "-"))
        append(month, width: 2)
        out.append(UInt8(ascii: "-"))
        append(day, width: 2)
        out.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2)
        if alwaysMilliseconds || milliseconds != 0 {
            out.append(UInt8(ascii: "."))
            append(milliseconds, width: 3)
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    @inline(__always)
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
