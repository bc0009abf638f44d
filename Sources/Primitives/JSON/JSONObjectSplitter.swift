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
    public mutating func feed(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Feeds more bytes; returns the objects (and garbage runs) completed by them.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Feeds more bytes; returns the objects (and garbage runs) completed by them.
    ///
    /// A concrete buffer, not a generic sequence: this loop runs once per byte of an import (a
    /// generic called from another module runs unspecialized, through witness tables per byte).
    /// Bytes of an object are copied in whole runs, not one at a time.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [[UInt8]] {
        var completed: [[UInt8]] = []
        let count = bytes.count
        // Bytes of `bytes` from `runStart` belong to the open object or garbage run (when there is
        // one) and are not yet in `current`.
        var runStart = 0
        var index = 0
        while index < count {
            if inString && !escaped {
                // Most of a CTR's bytes are inside strings: skip eight at a time while none is a
                // quote, a backslash or a newline (which decides whether a `{` starts a line),
                // then straight to the first one.
                let start = index
                while index + 8 <= count {
                    let mask = Self.plainRunEndMask(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    if mask != 0 {
                        index += mask.trailingZeroBitCount >> 3
                        break
                    }
                    index += 8
                }
                if index > start {
                    atLineStart = false
                    continue
                }
            }
            let byte = bytes[index]
            let lineStart = atLineStart
            atLineStart = byte == UInt8(ascii: "\n")
            if inGarbage {
                if byte == UInt8(ascii: "\n") {
                    completed.append(take(bytes, from: runStart, to: index))
                    inGarbage = false
                }
                index += 1
                continue
            }
            if depth == 0 {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): break
                case UInt8(ascii: "{"):
                    depth = 1
                    runStart = index
                default:
                    inGarbage = true
                    runStart = index
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "{") && lineStart && !inString {
                // The open object was truncated: return it as it is and start over.
                var truncated = take(bytes, from: runStart, to: index)
                while let last = truncated.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
                    truncated.removeLast()
                }
                completed.append(truncated)
                runStart = index
                depth = 1
                escaped = false
                index += 1
                continue
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { completed.append(take(bytes, from: runStart, to: index + 1)) }
            default: break
            }
            index += 1
        }
        if depth > 0 || inGarbage, runStart < count {
            current.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<count]))
        }
        return completed
    }

    /// The high bit of each byte of `word` (loaded little-endian) that is `"`, `\\` or a newline,
    /// and possibly of bytes above one: the lowest set bit marks the first exactly.
    @inline(__always)
    static func plainRunEndMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let newline = word ^ (ones &* 0x0A)
        return (newline &- ones) & ~newline & (ones &* 0x80) | JSONMemberFinder.quoteOrBackslashMask(word)
    }

    /// The open chunk: what earlier feeds left in `current` and `bytes[start..<end]`; `current`
    /// is empty afterwards.
    private mutating func take(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> [UInt8] {
        let run = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard !current.isEmpty else { return Array(run) }
        var chunk: [UInt8] = []
        swap(&chunk, &current)
        chunk.append(contentsOf: run)
        return chunk
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
