import Foundation

/// A minimal JSON writer that produces compact UTF-8 with members in the order written.
///
/// The encoders of this module use it to produce exact wire JSON (the order and spelling of
/// Amazon Connect's members), which `JSONEncoder` cannot promise.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    var data: Data { Data(bytes) }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next write is its value.
    mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        appendQuoted(value)
        needsComma = true
    }

    mutating func number(_ value: Int?) {
        guard let value else { return null() }
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func number(_ value: Double) {
        separate()
        bytes.append(
            contentsOf: (value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// Writes a timestamp string, `null` when absent.
    mutating func timestamp(_ value: UTCTimestamp?, milliseconds: Bool = false) {
        guard let value else { return null() }
        string(milliseconds ? value.iso8601Milliseconds : value.iso8601)
    }

    // Member shorthands.
    mutating func member(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }
    mutating func member(_ name: String, _ value: Int?) {
        key(name)
        number(value)
    }
    mutating func member(_ name: String, _ value: UTCTimestamp?, milliseconds: Bool = false) {
        key(name)
        timestamp(value, milliseconds: milliseconds)
    }
    mutating func nullMember(_ name: String) {
        key(name)
        null()
    }

    /// Writes a string map with keys sorted, so output is deterministic.
    mutating func stringMap(_ map: [String: String]) {
        beginObject()
        for name in map.keys.sorted() { member(name, map[name]) }
        endObject()
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00:
                // jsonb cannot store U+0000; the scanner rejects it, so never produce it.
                bytes.append(contentsOf: "\\ufffd".utf8)
            case 0x01..<0x20:
                let hex = String(byte, radix: 16)
                bytes.append(contentsOf: ("\\u00" + (hex.count == 1 ? "0" : "") + hex).utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
