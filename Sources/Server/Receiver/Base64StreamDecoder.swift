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
        // Eight bytes of slack: the fast loop stores eight bytes for every six it decodes.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count / 4 * 3 + 11) { scratch in
            Self.table.withUnsafeBufferPointer { table in
                var written = 0
                var index = 0
                let count = text.count
                defer { output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written])) }
                while index < count {
                    // Whole quads of data characters, the common case.
                    if quadCount == 0 && padding == 0 {
                        let decoded = Self.decodeQuads(text, from: index, into: scratch, at: written)
                        index += decoded * 4
                        written += decoded * 3
                        characterCount += decoded * 4
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

    /// Decodes whole quads of data characters from `text[start...]` into `scratch[offset...]`
    /// until the input ends or a quad holds anything else (padding, whitespace, an invalid
    /// character: the caller's loop takes those one at a time); returns how many quads.
    ///
    /// Two quads per step through tables that place each character's six bits already shifted,
    /// with the six bytes stored as one eight-byte word (the caller leaves slack for the other
    /// two, which the next step overwrites): the receiver's hottest loop, every byte of every
    /// record passes through it.
    @inline(__always)
    private static func decodeQuads(
        _ text: UnsafeRawBufferPointer, from start: Int, into scratch: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        shifted.withUnsafeBufferPointer { shifted in
            let output = UnsafeMutableRawPointer(scratch.baseAddress!)
            let count = text.count
            var index = start
            var written = offset
            @inline(__always) func quad(_ at: Int) -> UInt32 {
                shifted[Int(text[at])] | shifted[256 + Int(text[at + 1])] | shifted[512 + Int(text[at + 2])]
                    | shifted[768 + Int(text[at + 3])]
            }
            while index + 8 <= count {
                let first = quad(index)
                let second = quad(index + 4)
                guard (first | second) < 1 << 24 else { break }
                let bytes = UInt64(first) << 40 | UInt64(second) << 16
                output.storeBytes(of: bytes.bigEndian, toByteOffset: written, as: UInt64.self)
                written += 6
                index += 8
            }
            while index + 4 <= count {
                let value = quad(index)
                guard value < 1 << 24 else { break }
                scratch[written] = UInt8(truncatingIfNeeded: value >> 16)
                scratch[written + 1] = UInt8(truncatingIfNeeded: value >> 8)
                scratch[written + 2] = UInt8(truncatingIfNeeded: value)
                written += 3
                index += 4
            }
            return (index - start) / 4
        }
    }

    /// For each of a quad's four positions, 256 entries: a data character's six bits shifted to
    /// their place in the quad's 24, anything else a bit above them.
    private static let shifted: [UInt32] = {
        var shifted = [UInt32](repeating: 1 << 24, count: 1024)
        for byte in 0..<256 where table[byte] < 64 {
            let value = UInt32(table[byte])
            shifted[byte] = value << 18
            shifted[256 + byte] = value << 12
            shifted[512 + byte] = value << 6
            shifted[768 + byte] = value
        }
        return shifted
    }()

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
