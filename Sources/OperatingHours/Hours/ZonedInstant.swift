import Foundation
import Primitives

/// An instant together with the UTC offset in which to show it, e.g. a store's local time.
public struct ZonedInstant: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let secondsSinceEpoch: Int64
    /// The offset from UTC in seconds (east positive), e.g. 32400 for +09:00.
    public let utcOffset: Int

    /// Creates an instant shown at an offset.
    public init(secondsSinceEpoch: Int64, utcOffset: Int) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.utcOffset = utcOffset
    }

    /// The instant as a Foundation date.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }

    /// Local seconds since 1970 (the wall-clock time as if it were UTC).
    public var localSeconds: Int64 { secondsSinceEpoch + Int64(utcOffset) }

    /// The local date.
    public var localDate: CivilDate { CivilDate(dayNumber: Int(ZonedInstant.floorDivide(localSeconds, 86_400))) }

    /// Seconds after local midnight, 0..<86400.
    public var localSecondOfDay: Int {
        Int(localSeconds - ZonedInstant.floorDivide(localSeconds, 86_400) * 86_400)
    }

    /// Local `HH:MM`.
    public var localClock: String { OpeningSpan.clock(localSecondOfDay / 60) }

    /// ISO 8601 with the offset, e.g. `2026-12-31T23:00:00+09:00` (`+00:00` for UTC).
    public var iso8601: String {
        let date = localDate
        let second = localSecondOfDay
        let magnitude = abs(utcOffset) / 60
        return String(unsafeUninitializedCapacity: 25) { bytes in
            func put(_ value: Int, _ at: Int, _ width: Int) {
                var rest = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(max(0, min(date.year, 9999)), 0, 4)
            bytes[4] = UInt8(ascii: "-")
            put(date.month, 5, 2)
            bytes[7] = UInt8(ascii: "-")
            put(date.day, 8, 2)
            bytes[10] = UInt8(ascii: "T")
            put(second / 3600, 11, 2)
            bytes[13] = UInt8(ascii: ":")
            put(second / 60 % 60, 14, 2)
            bytes[16] = UInt8(ascii: ":")
            put(second % 60, 17, 2)
            bytes[19] = utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            put(magnitude / 60, 20, 2)
            bytes[22] = UInt8(ascii: ":")
            put(magnitude % 60, 23, 2)
            return 25
        }
    }

    /// ``iso8601``.
    public var description: String { iso8601 }

    /// Parses ISO 8601 date-time text: `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds
    /// (truncated to the second), then `Z` or an offset `±HH:MM` / `±HHMM`.
    ///
    /// The result keeps the offset that was written.
    /// - Throws: ``InstantParseError`` saying what is wrong and what is expected.
    public init(iso8601 text: String) throws(InstantParseError) {
        let bytes = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) throws(InstantParseError) -> Int {
            guard at + count <= bytes.count, let value = DecimalDigits.value(of: bytes[at..<(at + count)]) else {
                throw .malformed(text, expected: "digits at position \(at + 1)")
            }
            return value
        }
        func expect(_ at: Int, _ characters: String) throws(InstantParseError) {
            guard at < bytes.count, characters.utf8.contains(bytes[at]) else {
                throw .malformed(text, expected: "\"\(characters.first.map(String.init) ?? "")\" at position \(at + 1)")
            }
        }
        let year = try digits(0, 4)
        try expect(4, "-")
        let month = try digits(5, 2)
        try expect(7, "-")
        let day = try digits(8, 2)
        try expect(10, "Tt ")
        let hour = try digits(11, 2)
        try expect(13, ":")
        let minute = try digits(14, 2)
        try expect(16, ":")
        let second = try digits(17, 2)
        guard let date = CivilDate(year: year, month: month, day: day) else {
            throw .malformed(text, expected: "an existing date")
        }
        guard hour <= 23, minute <= 59, second <= 60 else {
            throw .malformed(text, expected: "a time from 00:00:00 to 23:59:60")
        }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > fractionStart else { throw .malformed(text, expected: "digits after the decimal point") }
        }
        guard index < bytes.count else { throw .missingOffset(text) }
        let offset: Int
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            offset = 0
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            let hours = try digits(index + 1, 2)
            var minutesAt = index + 3
            if minutesAt < bytes.count, bytes[minutesAt] == UInt8(ascii: ":") { minutesAt += 1 }
            let minutes = try digits(minutesAt, 2)
            guard hours <= 18, minutes <= 59 else { throw .malformed(text, expected: "an offset within ±18:00") }
            offset = sign * (hours * 3600 + minutes * 60)
            index = minutesAt + 2
        default:
            throw .missingOffset(text)
        }
        guard index == bytes.count else { throw .malformed(text, expected: "nothing after the offset") }
        let local = Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        self.init(secondsSinceEpoch: local - Int64(offset), utcOffset: offset)
    }

    public static func < (lhs: ZonedInstant, rhs: ZonedInstant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
