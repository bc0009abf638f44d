/// Finds one member of a JSON object without scanning the rest of the document: the receiver
/// reads a message's Kafka key this way, at a fraction of the cost of a full scan.
///
/// It walks the object's members in order, skipping every other value (nested containers and
/// strings included) byte by byte, eight at a time inside strings, and stops at the member it
/// looks for. It checks only the structure it walks: a document malformed after the member (or
/// inside a skipped string) is not noticed here; the decoders, which scan everything, refuse it.
/// With duplicate names the first wins (the decoders, like `jsonb`, keep the last).
package struct JSONMemberFinder {
    package let bytes: UnsafeRawBufferPointer

    /// A finder over `bytes`.
    package init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// What a value starts with.
    package enum Value: Equatable {
        case string(String)
        case object(start: Int)
        case null
        case other(UInt8)
    }

    /// The value of the first member among `names` that is present and not `null`, preferring
    /// earlier names: `(index in names, value)`; `nil` when none is.
    ///
    /// - Parameter start: The offset of the object's `{`.
    /// - Throws: ``JSONDecodingError`` (path `$`) for a structure it cannot walk.
    package func member(_ names: [StaticString], inObjectAt start: Int) throws -> (Int, Value)? {
        var position = start + 1
        var fallback: (Int, Value)?
        while case .member(let name, let valueStart) = try step(position) {
            if let index = names.firstIndex(where: { Self.equals(name, $0) }) {
                let value = try self.value(at: valueStart)
                if value != .null {
                    if index == 0 { return (index, value) }
                    if fallback.map({ index < $0.0 }) ?? true { fallback = (index, value) }
                }
            }
            position = try skipValue(valueStart)
        }
        return fallback
    }

    /// Walks every member of the object at `start` (its `{`): the first member among `names`
    /// present and not `null` (as ``member(_:inObjectAt:)``), and the offset just past the
    /// object's `}`.
    ///
    /// - Throws: ``JSONDecodingError`` (path `$`) for a structure it cannot walk.
    package func walk(_ names: [StaticString], objectAt start: Int) throws -> (found: (Int, Value)?, end: Int) {
        var position = start + 1
        var found: (Int, Value)?
        while true {
            switch try step(position) {
            case .end(let end):
                return (found, end)
            case .member(let name, let valueStart):
                if let index = names.firstIndex(where: { Self.equals(name, $0) }), found.map({ index < $0.0 }) ?? true {
                    let value = try self.value(at: valueStart)
                    if value != .null { found = (index, value) }
                }
                position = try skipValue(valueStart)
            }
        }
    }

    /// One step through an object's members, from just after its `{` or after a member's value.
    private enum Step {
        /// A member: its name (without quotes) and where its value starts.
        case member(name: UnsafeRawBufferPointer, value: Int)
        /// The object's `}`: the offset just past it.
        case end(Int)
    }

    /// Reads the next member's name and `:` (after a `,` if there is one), or the object's end.
    ///
    /// - Throws: ``JSONDecodingError`` (path `$`) for a structure it cannot walk.
    private func step(_ start: Int) throws -> Step {
        var position = skipWhitespace(start)
        guard position < bytes.count else { throw malformed(position, "the object is not closed") }
        if bytes[position] == UInt8(ascii: "}") { return .end(position + 1) }
        if bytes[position] == UInt8(ascii: ",") {
            position = skipWhitespace(position + 1)
            guard position < bytes.count else { throw malformed(position, "the object is not closed") }
        }
        guard bytes[position] == UInt8(ascii: "\"") else {
            throw malformed(position, "expected a member name in double quotes")
        }
        let nameEnd = try stringEnd(position)
        let name = UnsafeRawBufferPointer(rebasing: bytes[(position + 1)..<nameEnd])
        position = skipWhitespace(nameEnd + 1)
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw malformed(position, "expected ':' after a member name")
        }
        position = skipWhitespace(position + 1)
        guard position < bytes.count else { throw malformed(position, "a member has no value") }
        return .member(name: name, value: position)
    }

    /// The offset of the first non-whitespace byte at or after `position`.
    package func skipWhitespace(_ position: Int) -> Int {
        var position = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return position
            }
        }
        return position
    }

    // MARK: Values

    private func value(at position: Int) throws -> Value {
        switch bytes[position] {
        case UInt8(ascii: "\""):
            let end = try stringEnd(position)
            let contents = UnsafeRawBufferPointer(rebasing: bytes[(position + 1)..<end])
            if !contents.contains(UInt8(ascii: "\\")) { return .string(String(decoding: contents, as: UTF8.self)) }
            // Escapes are rare in keys: the strict scanner decodes them.
            return .string(
                try JSONDocument.parse(bytes: UnsafeRawBufferPointer(rebasing: bytes[position...end])) {
                    $0.string(at: 0)
                })
        case UInt8(ascii: "{"): return .object(start: position)
        case UInt8(ascii: "n"): return .null
        case let byte: return .other(byte)
        }
    }

    /// The offset just past the value at `position`.
    func skipValue(_ position: Int) throws -> Int {
        switch bytes[position] {
        case UInt8(ascii: "\""):
            return try stringEnd(position) + 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var position = position
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    position = try stringEnd(position)
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return position + 1 }
                default:
                    break
                }
                position += 1
            }
            throw malformed(position, "a container is not closed")
        default:
            var position = position
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
                    UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    return position
                default:
                    position += 1
                }
            }
            return position
        }
    }

    /// The offset of the closing quote of the string whose opening quote is at `position`.
    private func stringEnd(_ position: Int) throws -> Int {
        var position = position + 1
        let count = bytes.count
        while true {
            // Eight bytes at a time while none is a quote or a backslash, then straight to the
            // first one (strings are short: most end within their first eight bytes).
            while position + 8 <= count {
                let mask = Self.quoteOrBackslashMask(bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                if mask != 0 {
                    position += mask.trailingZeroBitCount >> 3
                    break
                }
                position += 8
            }
            guard position < count else { throw malformed(position, "a string is not closed") }
            switch bytes[position] {
            case UInt8(ascii: "\""): return position
            case UInt8(ascii: "\\"): position += 2
            default: position += 1
            }
        }
    }

    /// The high bit of each byte of `word` (loaded little-endian) that is `"` or `\`, and possibly
    /// of bytes above such a byte (a borrow carries upwards only): the lowest set bit, if any,
    /// marks the first quote or backslash exactly.
    @inline(__always)
    static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & high
    }

    private static func equals(_ name: UnsafeRawBufferPointer, _ wanted: StaticString) -> Bool {
        guard name.count == wanted.utf8CodeUnitCount else { return false }
        return wanted.withUTF8Buffer { wanted in
            name.elementsEqual(UnsafeRawBufferPointer(wanted))
        }
    }

    private func malformed(_ position: Int, _ reason: String) -> JSONDecodingError {
        JSONDecodingError(path: "$", reason: "malformed JSON at byte \(position): \(reason)")
    }
}
