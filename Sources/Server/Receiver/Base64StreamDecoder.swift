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
        guard failure == nil, !text.isEmpty else { return failure == nil }
        // Decoded into a scratch buffer with plain stores, then appended in one copy: this is the
        // receiver's hottest loop (every byte of every record passes through it).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count / 4 * 3 + 3) { scratch in
            Self.table.withUnsafeBufferPointer { table in
                var written = 0
                var index = 0
                let count = text.count
                defer { output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written])) }
                while index < count {
                    // Whole quads of data characters, the common case.
                    if quadCount == 0 && padding == 0 {
                        while index + 4 <= count {
                            let a = UInt32(table[Int(text[index])])
                            let b = UInt32(table[Int(text[index + 1])])
                            let c = UInt32(table[Int(text[index + 2])])
                            let d = UInt32(table[Int(text[index + 3])])
                            guard a | b | c | d < 64 else { break }
                            let value = a << 18 | b << 12 | c << 6 | d
                            scratch[written] = UInt8(truncatingIfNeeded: value >> 16)
                            scratch[written + 1] = UInt8(truncatingIfNeeded: value >> 8)
                            scratch[written + 2] = UInt8(truncatingIfNeeded: value)
                            written += 3
                            index += 4
                            characterCount += 4
                        }
                        guard index < count else { break }
                    }
                    // One character at a time: padding, whitespace, a quad split across pieces.
                    let byte = text[index]
                    index += 1
                    let value = table[Int(byte)]
                    if value < 64 {
                        guard padding == 0 else { return fail("data after the padding") }
                        quad = quad << 6 | UInt32(value)
                        quadCount += 1
                        characterCount += 1
                        if quadCount == 4 {
                            scratch[written] = UInt8(truncatingIfNeeded: quad >> 16)
                            scratch[written + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                            scratch[written + 2] = UInt8(truncatingIfNeeded: quad)
                            written += 3
                            quad = 0
                            quadCount = 0
                        }
                    } else if value == Self.pad {
                        characterCount += 1
                        guard quadCount >= 2, quadCount + padding < 4 else { return fail("misplaced padding '='") }
                        padding += 1
                        if quadCount + padding == 4 { written += flushPartial(into: scratch, at: written) }
                    } else if value != Self.space {
                        let shown =
                            byte >= 0x20 && byte < 0x7F
                            ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16))"
                        return fail("\(shown) at character \(characterCount) is not a base64 character")
                    }
                }
                return true
            }
        }
    }

    /// Ends the input: a tail of two or three characters without (complete) padding is decoded.
    ///
    /// - Returns: `false` when the input was invalid or ends with a lone character.
    mutating func finish(into output: inout [UInt8]) -> Bool {
        guard failure == nil else { return false }
        if quadCount == 1 { return fail("a lone base64 character at the end") }
        if quadCount > 1 {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3) { scratch in
                let written = flushPartial(into: scratch, at: 0)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
            }
        }
        return true
    }

    /// Writes the 1 or 2 bytes of a quad of 2 or 3 characters; returns how many.
    private mutating func flushPartial(into scratch: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let shifted = quad << (6 * UInt32(4 - quadCount))
        scratch[offset] = UInt8(truncatingIfNeeded: shifted >> 16)
        var written = 1
        if quadCount == 3 {
            scratch[offset + 1] = UInt8(truncatingIfNeeded: shifted >> 8)
            written = 2
        }
        quad = 0
        quadCount = 0
        return written
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
