/// What a ``JSONStreamLexer`` reports, in document order.
///
/// String values arrive in pieces (``stringContent(_:)``, escapes already decoded) so a string
/// of any length passes through without being held; member names arrive whole.
package protocol JSONStreamHandler {
    mutating func beginObject() throws
    mutating func endObject() throws
    mutating func beginArray() throws
    mutating func endArray() throws
    /// A member name (at most ``JSONStreamLexer/maximumKeyBytes`` bytes).
    mutating func key(_ name: String) throws
    mutating func beginString() throws
    /// A piece of the current string value, unescaped. Valid only during the call.
    mutating func stringContent(_ bytes: UnsafeRawBufferPointer) throws
    mutating func endString() throws
    /// A number, `true`, `false` or `null`, as written.
    mutating func scalar(_ text: String) throws
}

/// A JSON document that is not well formed, at a byte offset of the (decoded) body.
package struct JSONStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    package var offset: Int
    package var reason: String

    package var description: String { "malformed JSON at byte \(offset): \(reason)" }
}

/// A push parser of one JSON document fed in pieces of any size: memory stays bounded however
/// long the document or its strings are (the receiver's request bodies reach 64 MiB, one string
/// 1.3 MB).
///
/// It checks the grammar (nesting, commas, colons, literals) and decodes string escapes; it
/// does not check that a number is well formed beyond its characters, nor the UTF-8 of
/// strings, which it passes through as bytes.
package struct JSONStreamLexer {
    /// The longest member name accepted.
    package static let maximumKeyBytes = 1024
    /// The deepest nesting accepted.
    package static let maximumDepth = 64

    private enum Container { case object, array }
    private enum Expectation { case value, valueOrEnd, key, keyOrEnd, colon, commaOrEnd, done }
    private enum Token {
        case none
        case string(key: Bool)
        case escape(key: Bool)
        case unicode(key: Bool, digits: Int, value: UInt32)
        case scalar
    }

    private var stack: [Container] = []
    private var expectation = Expectation.value
    private var token = Token.none
    private var keyBytes: [UInt8] = []
    private var scalarBytes: [UInt8] = []
    private var highSurrogate: UInt32?
    /// Bytes fed so far.
    private(set) var offset = 0

    /// A lexer before the document's first byte.
    package init() {}

    /// Whether a whole document has been read.
    package var isComplete: Bool { expectation == .done }

    /// Feeds the next piece of the document.
    ///
    /// - Throws: ``JSONStreamError``, or what the handler throws.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, to handler: inout some JSONStreamHandler) throws {
        var index = 0
        let count = bytes.count
        defer { offset += count }
        while index < count {
            switch token {
            case .string(let isKey):
                // The long run of plain bytes of a string, handed over in one piece.
                var end = index
                // Eight bytes at a time while none ends the run (a base64 text is one long run).
                while end + 8 <= count, !Self.endsRun(bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)) {
                    end += 8
                }
                while end < count {
                    let byte = bytes[end]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                    end += 1
                }
                if end > index {
                    try flushSurrogate(key: isKey, handler: &handler)
                    try content(UnsafeRawBufferPointer(rebasing: bytes[index..<end]), key: isKey, handler: &handler)
                }
                guard end < count else { return }
                let byte = bytes[end]
                index = end + 1
                if byte == UInt8(ascii: "\"") {
                    try flushSurrogate(key: isKey, handler: &handler)
                    token = .none
                    try endString(key: isKey, handler: &handler)
                } else if byte == UInt8(ascii: "\\") {
                    token = .escape(key: isKey)
                } else {
                    throw error(at: end, "a raw control character (0x\(String(byte, radix: 16))) inside a string")
                }
            case .escape(let isKey):
                let byte = bytes[index]
                index += 1
                let decoded: UInt8
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = byte
                case UInt8(ascii: "b"): decoded = 0x08
                case UInt8(ascii: "f"): decoded = 0x0C
                case UInt8(ascii: "n"): decoded = 0x0A
                case UInt8(ascii: "r"): decoded = 0x0D
                case UInt8(ascii: "t"): decoded = 0x09
                case UInt8(ascii: "u"):
                    token = .unicode(key: isKey, digits: 0, value: 0)
                    continue
                default:
                    throw error(at: index - 1, "an unknown escape \\\(Character(Unicode.Scalar(byte)))")
                }
                try flushSurrogate(key: isKey, handler: &handler)
                try withUnsafeBytes(of: decoded) { try content($0, key: isKey, handler: &handler) }
                token = .string(key: isKey)
            case .unicode(let isKey, let digits, let value):
                let byte = bytes[index]
                index += 1
                guard let digit = Self.hexValue(byte) else {
                    throw error(at: index - 1, "\\u must be followed by four hexadecimal digits")
                }
                let next = value << 4 | digit
                if digits < 3 {
                    token = .unicode(key: isKey, digits: digits + 1, value: next)
                } else {
                    token = .string(key: isKey)
                    try codeUnit(next, key: isKey, handler: &handler)
                }
            case .scalar:
                var end = index
                while end < count && Self.isScalarByte(bytes[end]) { end += 1 }
                scalarBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                guard scalarBytes.count <= 64 else { throw error(at: end, "a number or literal over 64 characters") }
                index = end
                guard end < count else { return }
                token = .none
                try endScalar(handler: &handler)
            case .none:
                let byte = bytes[index]
                index += 1
                try structural(byte, at: index - 1, handler: &handler)
            }
        }
    }

    /// Ends the document.
    ///
    /// - Throws: ``JSONStreamError`` when the document is incomplete.
    package mutating func finish(handler: inout some JSONStreamHandler) throws {
        if case .scalar = token {
            token = .none
            try endScalar(handler: &handler)
        }
        guard expectation == .done, case .none = token else {
            throw JSONStreamError(offset: offset, reason: "the document ends before it is complete")
        }
    }

    // MARK: Structure

    private mutating func structural(_ byte: UInt8, at position: Int, handler: inout some JSONStreamHandler) throws {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
            return
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try expectValue(at: position)
            guard stack.count < Self.maximumDepth else {
                throw error(at: position, "nesting deeper than \(Self.maximumDepth)")
            }
            if byte == UInt8(ascii: "{") {
                stack.append(.object)
                expectation = .keyOrEnd
                try handler.beginObject()
            } else {
                stack.append(.array)
                expectation = .valueOrEnd
                try handler.beginArray()
            }
        case UInt8(ascii: "}"):
            guard stack.last == .object, expectation == .keyOrEnd || expectation == .commaOrEnd else {
                throw error(at: position, "an unexpected }")
            }
            stack.removeLast()
            valueEnded()
            try handler.endObject()
        case UInt8(ascii: "]"):
            guard stack.last == .array, expectation == .valueOrEnd || expectation == .commaOrEnd else {
                throw error(at: position, "an unexpected ]")
            }
            stack.removeLast()
            valueEnded()
            try handler.endArray()
        case UInt8(ascii: ","):
            guard expectation == .commaOrEnd else { throw error(at: position, "an unexpected comma") }
            expectation = stack.last == .object ? .key : .value
        case UInt8(ascii: ":"):
            guard expectation == .colon else { throw error(at: position, "an unexpected colon") }
            expectation = .value
        case UInt8(ascii: "\""):
            if expectation == .key || expectation == .keyOrEnd {
                keyBytes.removeAll(keepingCapacity: true)
                token = .string(key: true)
            } else {
                try expectValue(at: position)
                token = .string(key: false)
                try handler.beginString()
            }
        default:
            guard Self.isScalarByte(byte) else {
                throw error(at: position, "an unexpected character \(Self.show(byte))")
            }
            try expectValue(at: position)
            scalarBytes.removeAll(keepingCapacity: true)
            scalarBytes.append(byte)
            token = .scalar
        }
    }

    private func expectValue(at position: Int) throws {
        switch expectation {
        case .value, .valueOrEnd: return
        case .done: throw error(at: position, "content after the end of the document")
        default: throw error(at: position, "a value where a member name, comma or colon belongs")
        }
    }

    private mutating func valueEnded() {
        expectation = stack.isEmpty ? .done : .commaOrEnd
    }

    private mutating func endString(key: Bool, handler: inout some JSONStreamHandler) throws {
        if key {
            expectation = .colon
            try handler.key(String(decoding: keyBytes, as: UTF8.self))
        } else {
            valueEnded()
            try handler.endString()
        }
    }

    private mutating func endScalar(handler: inout some JSONStreamHandler) throws {
        let text = String(decoding: scalarBytes, as: UTF8.self)
        let first = scalarBytes[0]
        let isNumber =
            first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        guard isNumber || text == "true" || text == "false" || text == "null" else {
            throw JSONStreamError(offset: offset, reason: "an unknown literal \"\(text.prefix(20))\"")
        }
        valueEnded()
        try handler.scalar(text)
    }

    // MARK: Strings

    private mutating func content(
        _ bytes: UnsafeRawBufferPointer, key: Bool, handler: inout some JSONStreamHandler
    ) throws {
        if key {
            keyBytes.append(contentsOf: bytes)
            guard keyBytes.count <= Self.maximumKeyBytes else {
                throw JSONStreamError(offset: offset, reason: "a member name over \(Self.maximumKeyBytes) bytes")
            }
        } else {
            try handler.stringContent(bytes)
        }
    }

    /// A `\uXXXX` code unit: surrogate pairs combine; a lone surrogate becomes U+FFFD.
    private mutating func codeUnit(_ unit: UInt32, key: Bool, handler: inout some JSONStreamHandler) throws {
        if (0xD800...0xDBFF).contains(unit) {
            try flushSurrogate(key: key, handler: &handler)
            highSurrogate = unit
            return
        }
        var scalar = unit
        if (0xDC00...0xDFFF).contains(unit) {
            if let high = highSurrogate {
                scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                highSurrogate = nil
            } else {
                scalar = 0xFFFD
            }
        } else {
            try flushSurrogate(key: key, handler: &handler)
        }
        let utf8 = Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        try utf8.withUnsafeBytes { try content($0, key: key, handler: &handler) }
    }

    /// A high surrogate not followed by a low one becomes U+FFFD.
    private mutating func flushSurrogate(key: Bool, handler: inout some JSONStreamHandler) throws {
        guard highSurrogate != nil else { return }
        highSurrogate = nil
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        try replacement.withUnsafeBytes { try content($0, key: key, handler: &handler) }
    }

    // MARK: Bytes

    /// Whether any byte of `word` is `"`, `\` or a control character (below 0x20).
    @inline(__always)
    private static func endsRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & high != 0
    }

    private static func isScalarByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"),
            UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16))"
    }

    private func error(at position: Int, _ reason: String) -> JSONStreamError {
        JSONStreamError(offset: offset + position, reason: reason)
    }
}
