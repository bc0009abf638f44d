/// Splits a byte stream of JSON objects into one chunk per object.
///
/// Amazon Connect's Firehose exports hold CTRs either newline-delimited or concatenated with no
/// separator at all (`}{`). The splitter tracks nesting and strings, so both work, in any chunking
/// of the input. Bytes outside any object that are not whitespace are returned as a chunk of
/// their own (up to the next newline), so the caller can report them instead of losing them.
///
/// A truncated object in a newline-delimited file would otherwise swallow the objects after it:
/// a `{` at the very start of a line, while an object is still open, ends the open one (returned
/// as a broken chunk) and starts a new one. Pretty-printed objects keep working as long as their
/// nested braces are not at column 0, which is how every JSON printer writes them.
public struct JSONObjectSplitter: Sendable {
    private var current: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var inGarbage = false
    private var atLineStart = true

    /// Creates a splitter.
    public init() {}

    /// Feeds more bytes; returns the objects (and garbage runs) completed by them.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var completed: [[UInt8]] = []
        for byte in bytes {
            let lineStart = atLineStart
            atLineStart = byte == UInt8(ascii: "\n")
            if inGarbage {
                if byte == UInt8(ascii: "\n") {
                    completed.append(current)
                    current.removeAll(keepingCapacity: true)
                    inGarbage = false
                } else {
                    current.append(byte)
                }
                continue
            }
            if depth == 0 {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
                case UInt8(ascii: "{"):
                    depth = 1
                    current.append(byte)
                default:
                    inGarbage = true
                    current.append(byte)
                }
                continue
            }
            if byte == UInt8(ascii: "{") && lineStart && !inString && depth > 0 {
                // The open object was truncated: return it as it is and start over.
                while let last = current.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
                    current.removeLast()
                }
                completed.append(current)
                current = [byte]
                depth = 1
                escaped = false
                continue
            }
            current.append(byte)
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    completed.append(current)
                    current.removeAll(keepingCapacity: true)
                }
            default: break
            }
        }
        return completed
    }

    /// Ends the stream: an unfinished object or garbage run, if any, is returned as a last chunk.
    public mutating func finish() -> [UInt8]? {
        defer {
            current.removeAll()
            depth = 0
            inString = false
            escaped = false
            inGarbage = false
            atLineStart = true
        }
        return current.isEmpty ? nil : current
    }
}
