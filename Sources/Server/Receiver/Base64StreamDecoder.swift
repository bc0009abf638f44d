/// Decodes standard base64 (RFC 4648 §4, the alphabet Firehose writes) fed in pieces.
///
/// Whitespace is skipped; padding is optional at the end (an unpadded tail of two or three
/// characters decodes as padded). Anything else stops decoding with a reason.
struct Base64StreamDecoder {
    /// Why decoding stopped, when it did.
    private(set) var failure: String?
    /// Characters (other than whitespace) consumed so far.
    private(set) var characterCount = 0
    private var quad: UInt32 = 0
    private var quadCount = 0
    private var padding = 0

    /// Decodes `text`, appending the bytes to `output`; returns `false` once the input is invalid.
    @discardableResult
    mutating func decode(_ text: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Bool {
        guard failure == nil else { return false }
        // Room for this piece at once (growing geometrically: pieces of one long text keep coming).
        let needed = output.count + text.count / 4 * 3 + 3
        if output.capacity < needed { output.reserveCapacity(max(needed, output.capacity * 2)) }
        for byte in text {
            let value = Self.table[Int(byte)]
            if value < 64 {
                guard padding == 0 else { return fail("data after the padding") }
                quad = quad << 6 | UInt32(value)
                quadCount += 1
                characterCount += 1
                if quadCount == 4 {
                    output.append(UInt8(truncatingIfNeeded: quad >> 16))
                    output.append(UInt8(truncatingIfNeeded: quad >> 8))
                    output.append(UInt8(truncatingIfNeeded: quad))
                    quad = 0
                    quadCount = 0
                }
            } else if value == Self.pad {
                characterCount += 1
                guard quadCount >= 2, quadCount + padding < 4 else { return fail("misplaced padding '='") }
                padding += 1
                if quadCount + padding == 4 { flushPartial(into: &output) }
            } else if value == Self.space {
                continue
            } else {
                let shown =
                    byte >= 0x20 && byte < 0x7F
                    ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16))"
                return fail("\(shown) at character \(characterCount) is not a base64 character")
            }
        }
        return true
    }

    /// Ends the input: a tail of two or three characters without (complete) padding is decoded.
    ///
    /// - Returns: `false` when the input was invalid or ends with a lone character.
    mutating func finish(into output: inout [UInt8]) -> Bool {
        guard failure == nil else { return false }
        if quadCount == 1 { return fail("a lone base64 character at the end") }
        if quadCount > 1 { flushPartial(into: &output) }
        return true
    }

    /// The 1 or 2 bytes of a quad of 2 or 3 characters.
    private mutating func flushPartial(into output: inout [UInt8]) {
        let shifted = quad << (6 * UInt32(4 - quadCount))
        output.append(UInt8(truncatingIfNeeded: shifted >> 16))
        if quadCount == 3 { output.append(UInt8(truncatingIfNeeded: shifted >> 8)) }
        quad = 0
        quadCount = 0
    }

    private mutating func fail(_ reason: String) -> Bool {
        failure = reason
        return false
    }

    private static let pad: UInt8 = 64
    private static let space: UInt8 = 65
    private static let invalid: UInt8 = 255

    /// Each byte's 6-bit value, or ``pad``, ``space`` or ``invalid``.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(UInt8(ascii: "="))] = pad
        for character in [UInt8(ascii: " "), 0x0A, 0x0D, 0x09] { table[Int(character)] = space }
        return table
    }()
}
