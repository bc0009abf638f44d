import Foundation

/// A minimal JSON writer that produces compact UTF-8 with members in the order written.
///
/// The one JSON writer of the pure cores: ContactCenter's encoders use it for exact wire JSON
/// (the order and spelling of Amazon Connect's members, which `JSONEncoder` cannot promise) and
/// OperatingHours' hook answers for their flat string maps. Strings are escaped one way
/// everywhere: U+0000 becomes U+FFFD (PostgreSQL's jsonb cannot store it and the scanner rejects
/// it), other control characters `\u00XX`.
public struct JSONWriter: Sendable {
    /// The UTF-8 written so far.
    public private(set) var bytes: [UInt8] = []
    @usableFromInline var needsComma = false

    /// - Parameter capacity: Bytes to reserve up front.
    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// ``bytes`` as `Data`.
    public var data: Data { Data(bytes) }

    /// ``bytes`` as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next write is its value.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        appendQuoted(value)
        needsComma = true
    }

    public mutating func number(_ value: Int?) {
        guard let value else { return null() }
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    public mutating func number(_ value: Double) {
        separate()
        bytes.append(
            contentsOf: (value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    // Member shorthands.
    public mutating func member(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }
    public mutating func member(_ name: String, _ value: Int?) {
        key(name)
        number(value)
    }
    public mutating func nullMember(_ name: String) {
        key(name)
        null()
    }

    /// Writes a string map with keys sorted, so output is deterministic.
    public mutating func stringMap(_ map: [String: String]) {
        beginObject()
        for name in map.keys.sorted() { member(name, map[name]) }
        endObject()
    }

    @inline(__always)
    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    mutating func appendQuoted(_ text: String) {
        Self.appendQuoted(text, to: &bytes)
    }

    /// Appends `text` as a JSON string, quoted and escaped, to `bytes`: the one escaping rule of
    /// every JSON Switchboard writes (control characters as `\u00XX`, U+0000, which `jsonb`
    /// cannot store, as U+FFFD).
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        // The bytes through a pointer: iterating `String.UTF8View` checks the string's form per
        // byte, and this runs for every key and value of every CTR's attributes.
        text.withUTF8 { appendQuoted($0, to: &bytes) }
    }

    /// ``appendQuoted(_:to:)`` of the UTF-8 in `utf8`: runs of bytes that need no escaping are
    /// copied whole (most keys and values are one such run).
    static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for position in 0..<utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            runStart = position + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00:
                // jsonb cannot store U+0000; the scanner rejects it, so never produce it.
                bytes.append(contentsOf: "\\ufffd".utf8)
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                ])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }
}
