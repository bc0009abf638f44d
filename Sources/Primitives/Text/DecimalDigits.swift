/// Unsigned integers written in decimal as bytes, for the encoders that build their output as
/// bytes (a plan's CSV, `COPY`'s text rows) instead of a `String` per number.
public enum DecimalDigits {
    /// Appends `value` in decimal, zero-padded to at least `width` digits.
    @inlinable
    public static func append(_ value: UInt, width: Int, to bytes: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        for _ in count..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        rest = value
        for index in (start..<start + count).reversed() {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// The number written by `digits` (ASCII `0`...`9` only), or nil for any other byte.
    public static func value(of digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `value` with at least two digits: `7` is `07`.
    public static func twoDigits(_ value: Int) -> String {
        value < 10 && value >= 0 ? "0" + String(value) : String(value)
    }
}
