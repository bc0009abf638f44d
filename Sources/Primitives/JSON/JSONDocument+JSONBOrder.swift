import Foundation

/// How a decoded record keeps its JSON in `rawJSON`.
public enum RawJSONForm: Sendable, Hashable {
    /// The exact bytes received.
    case asReceived
    /// The same JSON value written again with every object's members in the order PostgreSQL's
    /// `jsonb` stores them — shorter names first, names of equal length by their bytes — and no
    /// whitespace between tokens; names, strings and numbers are kept exactly as written.
    ///
    /// For a record headed for a `jsonb` column. `jsonb` sorts each object's members when it
    /// builds a value, and its sort first checks whether they are already in order: PostgreSQL
    /// parses a contact trace record into `jsonb` about 30 % faster in this order than in the
    /// order Amazon Connect writes its members.
    /// So the ingest worker, which has every object's members at hand after decoding, saves
    /// PostgreSQL — the one part of the pipeline that does not scale out — over a quarter of its
    /// work on `raw`.
    /// The stored value is the same (`jsonb` keeps neither member order nor whitespace): the
    /// sort is stable, so repeated names stay in document order and the last one still wins. An
    /// object with an escaped member name (compared decoded by `jsonb`) keeps its order.
    case jsonbOrder
}

extension JSONDocument {
    /// Parses `data`, runs `body` with the document, and returns its result with the JSON to keep
    /// in `rawJSON` (`data` itself, or ``jsonbOrdered()``).
    package static func decode<R>(_ data: Data, keepingRaw form: RawJSONForm, _ body: (JSONDocument) throws -> R) throws
        -> (
            value: R, raw: Data
        )
    {
        try data.withUnsafeBytes { bytes in try decode(bytes, keepingRaw: form, asReceived: data, body) }
    }

    /// Parses `bytes`, runs `body` with the document, and returns its result with the JSON to
    /// keep in `rawJSON`: `asReceived` (the bytes as a `Data`), or ``jsonbOrdered()``.
    package static func decode<R>(
        _ bytes: UnsafeRawBufferPointer, keepingRaw form: RawJSONForm, asReceived: @autoclosure () -> Data,
        _ body: (JSONDocument) throws -> R
    ) throws -> (value: R, raw: Data) {
        try parse(bytes: bytes) { document in
            let value = try body(document)
            switch form {
            case .asReceived: return (value, asReceived())
            case .jsonbOrder: return (value, document.jsonbOrdered())
            }
        }
    }

    /// Decodes one record (a CTR, an agent event, a contact event) from `bytes` with `body`,
    /// returning it with the JSON its `rawJSON` keeps; errors are attributed to `name`.
    package static func decodeRecord<R>(
        _ name: String, _ bytes: UnsafeRawBufferPointer, keepingRaw form: RawJSONForm,
        asReceived: @autoclosure () -> Data, _ body: (JSONObjectReader) throws -> R
    ) throws -> (value: R, raw: Data) {
        do {
            return try decode(bytes, keepingRaw: form, asReceived: asReceived()) { document in
                try body(JSONObjectReader.root(document))
            }
        } catch let error as JSONDecodingError {
            throw error.attributed(to: name)
        }
    }

    /// The document in ``RawJSONForm/jsonbOrder``.
    package func jsonbOrdered() -> Data {
        // The output is the input without the whitespace between tokens: never longer. Written
        // into memory of its own, handed to the `Data`: `Data(count:)` would zero it first.
        guard let output = malloc(max(bytes.count, 1)) else { fatalError("out of memory") }
        var cursor = 0
        write(0, into: output, at: &cursor)
        return Data(bytesNoCopy: output, count: cursor, deallocator: .free)
    }

    private func write(_ index: Int, into out: UnsafeMutableRawPointer, at cursor: inout Int) {
        let node = nodes[index]
        switch node.kind {
        case .object:
            writeObject(node, into: out, at: &cursor)
        case .array:
            out.storeBytes(of: UInt8(ascii: "["), toByteOffset: cursor, as: UInt8.self)
            cursor += 1
            var child = index + 1
            for element in 0..<Int(node.count) {
                if element > 0 {
                    out.storeBytes(of: UInt8(ascii: ","), toByteOffset: cursor, as: UInt8.self)
                    cursor += 1
                }
                write(child, into: out, at: &cursor)
                child = Int(nodes[child].next)
            }
            out.storeBytes(of: UInt8(ascii: "]"), toByteOffset: cursor, as: UInt8.self)
            cursor += 1
        case .string:
            // With its quotes: the contents start after the opening one and end at the closing one.
            copy(from: Int(node.start) - 1, count: Int(node.end - node.start) + 2, into: out, at: &cursor)
        case .number, .true, .false, .null:
            copy(from: Int(node.start), count: Int(node.end - node.start), into: out, at: &cursor)
        }
    }

    private func writeObject(_ node: Node, into out: UnsafeMutableRawPointer, at cursor: inout Int) {
        out.storeBytes(of: UInt8(ascii: "{"), toByteOffset: cursor, as: UInt8.self)
        cursor += 1
        let first = Int(node.members)
        let count = Int(node.count)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { order in
            var escaped = false
            for offset in 0..<count {
                order[offset] = Int32(first + offset)
                escaped = escaped || members[first + offset].escaped
            }
            if !escaped {
                // Insertion sort, stable (a member moves only past names that sort after it):
                // objects have a few dozen members at most, often in order already.
                for sorted in 1..<max(count, 1) {
                    let moving = order[sorted]
                    var slot = sorted
                    while slot > 0, precedes(moving, order[slot - 1]) {
                        order[slot] = order[slot - 1]
                        slot -= 1
                    }
                    order[slot] = moving
                }
            }
            for position in 0..<count {
                let member = members[Int(order[position])]
                if position > 0 {
                    out.storeBytes(of: UInt8(ascii: ","), toByteOffset: cursor, as: UInt8.self)
                    cursor += 1
                }
                copy(from: Int(member.nameStart) - 1, count: Int(member.nameLength) + 2, into: out, at: &cursor)
                out.storeBytes(of: UInt8(ascii: ":"), toByteOffset: cursor, as: UInt8.self)
                cursor += 1
                write(Int(member.value), into: out, at: &cursor)
            }
        }
        out.storeBytes(of: UInt8(ascii: "}"), toByteOffset: cursor, as: UInt8.self)
        cursor += 1
    }

    /// Whether member `a`'s name sorts before member `b`'s in `jsonb`: shorter first, then by bytes.
    @inline(__always)
    private func precedes(_ a: Int32, _ b: Int32) -> Bool {
        let left = members[Int(a)]
        let right = members[Int(b)]
        if left.nameLength != right.nameLength { return left.nameLength < right.nameLength }
        let base = bytes.baseAddress!
        return memcmp(base + Int(left.nameStart), base + Int(right.nameStart), Int(left.nameLength)) < 0
    }

    /// Copies a token. Most are a few bytes (names, short strings, numbers): those move as two
    /// overlapping words instead of through a call to `memmove` each (~150 tokens per CTR).
    @inline(__always)
    private func copy(from start: Int, count: Int, into out: UnsafeMutableRawPointer, at cursor: inout Int) {
        let source = UnsafeRawPointer(bytes.baseAddress! + start)
        let target = out + cursor
        if count >= 8, count <= 16 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4, count < 8 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
        cursor += count
    }
}
