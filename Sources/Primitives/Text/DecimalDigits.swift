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
}
