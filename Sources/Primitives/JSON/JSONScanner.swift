import Foundation

/// The strict, allocation-light JSON scanner behind `JSONDocument`.
///
/// It validates the whole document (grammar, UTF-8, escapes) and records one tape node per
/// value. See `JSONDocument` for the rules and why they match PostgreSQL's `jsonb`.
package struct JSONScanner {
    /// Containers nested deeper than this are rejected instead of exhausting the stack.
    package static let maximumDepth = 256

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private var nodes: [JSONDocument.Node] = []
    private var members: [JSONDocument.Member] = []
    /// The members of the objects being scanned, innermost last: an object's go to `members`
    /// together when it closes.
    private var openMembers: [JSONDocument.Member] = []

    package init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        nodes.reserveCapacity(max(16, bytes.count / 12))
        members.reserveCapacity(max(8, bytes.count / 24))
    }

    /// Scans one complete document: a single value surrounded by optional whitespace.
    package mutating func scanDocument() throws -> (nodes: [JSONDocument.Node], members: [JSONDocument.Member]) {
        skipWhitespace()
        try scanValue(depth: 0)
        skipWhitespace()
        if position != bytes.count {
            throw fail("unexpected \(describeByte()) after the JSON value")
        }
        return (nodes, members)
    }

    // MARK: - Values

    private mutating func scanValue(depth: Int) throws {
        guard position < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try scanObject(depth: depth + 1)
        case UInt8(ascii: "["): try scanArray(depth: depth + 1)
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "t"): try scanKeyword("true", kind: .true)
        case UInt8(ascii: "f"): try scanKeyword("false", kind: .false)
        case UInt8(ascii: "n"): try scanKeyword("null", kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw fail("unexpected \(describeByte()), expected a value")
        }
    }

    private mutating func scanObject(depth: Int) throws {
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
        let index = nodes.count
        nodes.append(.init(kind: .object, flag: false, start: Int32(position), end: 0, next: 0, count: 0))
        position += 1
        var count: Int32 = 0
        let firstOpenMember = openMembers.count
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw fail("expected a member name in double quotes, found \(describeByte())")
                }
                try scanString()
                let name = nodes[nodes.count - 1]
                openMembers.append(
                    .init(
                        nameStart: name.start, nameLength: name.end - name.start, value: Int32(nodes.count),
                        escaped: name.flag))
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after a member name, found \(describeByte())")
                }
                position += 1
                skipWhitespace()
                try scanValue(depth: depth)
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw fail("unexpected end of input inside an object") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    break
                } else {
                    throw fail("expected ',' or '}' in an object, found \(describeByte())")
                }
            }
        }
        nodes[index].end = Int32(position)
        nodes[index].next = Int32(nodes.count)
        nodes[index].count = count
        nodes[index].members = Int32(members.count)
        members.append(contentsOf: openMembers[firstOpenMember...])
        openMembers.removeSubrange(firstOpenMember...)
    }

    private mutating func scanArray(depth: Int) throws {
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
        let index = nodes.count
        nodes.append(.init(kind: .array, flag: false, start: Int32(position), end: 0, next: 0, count: 0))
        position += 1
        var count: Int32 = 0
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                try scanValue(depth: depth)
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw fail("unexpected end of input inside an array") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    break
                } else {
                    throw fail("expected ',' or ']' in an array, found \(describeByte())")
                }
            }
        }
        nodes[index].end = Int32(position)
        nodes[index].next = Int32(nodes.count)
        nodes[index].count = count
    }

    private mutating func scanKeyword(_ word: StaticString, kind: JSONDocument.Kind) throws {
        let length = word.utf8CodeUnitCount
        guard position + length <= bytes.count,
            memcmp(bytes.baseAddress! + position, word.utf8Start, length) == 0
        else { throw fail("invalid literal, expected '\(word)'") }
        nodes.append(
            .init(
                kind: kind, flag: false, start: Int32(position), end: Int32(position + length),
                next: Int32(nodes.count + 1), count: 0))
        position += length
    }

    private mutating func scanNumber() throws {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("invalid number, expected a digit after '.'")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("invalid number, expected a digit in the exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        nodes.append(
            .init(
                kind: .number, flag: isInteger, start: Int32(start), end: Int32(position),
                next: Int32(nodes.count + 1), count: 0))
    }

    private mutating func scanString() throws {
        position += 1  // opening quote
        let start = position
        var escaped = false
        let count = bytes.count
        while true {
            // Eight bytes at a time while every one is plain ASCII: no quote, backslash, control
            // character or start of a multi-byte sequence (most of a CTR's string bytes); then
            // straight to the first byte that is not (most strings end within eight bytes).
            while position + 8 <= count {
                let mask = Self.attentionMask(bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                if mask != 0 {
                    position += mask.trailingZeroBitCount >> 3
                    break
                }
                position += 8
            }
            guard position < count else { throw fail("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try scanEscape()
            } else if byte < 0x20 {
                throw fail("control character 0x\(String(byte, radix: 16)) in a string must be escaped")
            } else if byte < 0x80 {
                position += 1
            } else {
                try scanUTF8Sequence()
            }
        }
        nodes.append(
            .init(
                kind: .string, flag: escaped, start: Int32(start), end: Int32(position),
                next: Int32(nodes.count + 1), count: 0))
        position += 1  // closing quote
    }

    /// The high bit of each byte of `word` (loaded little-endian) that is `"`, `\\`, below 0x20 or
    /// above 0x7F (the bytes a string scan must look at one by one), and possibly of bytes above
    /// one (a borrow carries upwards only): the lowest set bit marks the first exactly.
    @inline(__always)
    package static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let controlOrHigh = (word &- ones &* 0x20) & ~word | word
        return (controlOrHigh & high) | JSONMemberFinder.quoteOrBackslashMask(word)
    }

    private mutating func scanEscape() throws {
        position += 1
        guard position < bytes.count else { throw fail("unterminated escape sequence") }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            let unit = try scanHex4()
            if unit == 0 {
                throw fail("\\u0000 is not allowed (PostgreSQL jsonb cannot store it)")
            } else if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw fail("high surrogate \\u\(String(unit, radix: 16)) not followed by a low surrogate") }
                position += 2
                let low = try scanHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail("high surrogate \\u\(String(unit, radix: 16)) not followed by a low surrogate")
                }
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw fail("low surrogate \\u\(String(unit, radix: 16)) without a preceding high surrogate")
            }
        default:
            throw fail("invalid escape sequence '\\\(describeByte())'")
        }
    }

    private mutating func scanHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[position]) else { throw fail("invalid hex digit in \\u escape") }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF).
    private mutating func scanUTF8Sequence() throws {
        let lead = bytes[position]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upperBound = 0x9F
        case 0xF0:
            length = 4
            lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upperBound = 0x8F
        default: throw fail("invalid UTF-8 byte 0x\(String(lead, radix: 16)) in a string")
        }
        guard position + length <= bytes.count else { throw fail("truncated UTF-8 sequence in a string") }
        let second = bytes[position + 1]
        guard second >= lowerBound, second <= upperBound else { throw fail("invalid UTF-8 sequence in a string") }
        for offset in 2..<length where bytes[position + offset] & 0xC0 != 0x80 {
            throw fail("invalid UTF-8 sequence in a string")
        }
        position += length
    }

    // MARK: - Helpers

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private func describeByte() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private func fail(_ reason: String) -> JSONDecodingError {
        JSONDecodingError(path: "$", reason: "malformed JSON at byte \(position): \(reason)")
    }

    /// Decodes the escapes of an already validated string body.
    package static func unescape(_ body: UnsafeRawBufferPointer) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0..<4 { value = value << 4 | UInt32(hexValue(body[at + offset]) ?? 0) }
            return value
        }
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = body[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = hex4(index + 2)
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                output.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: output.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
