import Primitives

extension JSONWriter {
    /// Writes a timestamp string (Amazon Connect's ISO 8601 spelling), `null` when absent.
    mutating func timestamp(_ value: UTCTimestamp?, milliseconds: Bool = false) {
        guard let value else { return null() }
        string(milliseconds ? value.iso8601Milliseconds : value.iso8601)
    }

    /// Writes a timestamp member.
    mutating func member(_ name: String, _ value: UTCTimestamp?, milliseconds: Bool = false) {
        key(name)
        timestamp(value, milliseconds: milliseconds)
    }
}
