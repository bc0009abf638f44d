import Foundation

/// A parsed JSON document laid out as a flat tape of nodes over the original bytes.
///
/// The decoders of ContactCenter's models and of the hook's `HookCall` parse every message with
/// this scanner rather than `JSONDecoder` or `JSONSerialization`: on a 3 KB contact trace
/// record, both Foundation decoders manage about 30 000 records per second on one core, while
/// the tape decodes several times faster, because it allocates one array per document and
/// materialises only the strings a model asks for.
///
/// The grammar is strict RFC 8259 and deliberately as strict as PostgreSQL's `jsonb` input,
/// because the ingest stores the raw bytes of every accepted message in a `jsonb` column:
/// strings must be valid UTF-8 without raw control characters, `\u0000` is rejected (`jsonb`
/// cannot store it) and `\u` surrogates must pair. A message this scanner accepts is therefore
/// never rejected later by the database, where it would fail a whole batch.
package struct JSONDocument {
    /// What a node of the tape holds.
    package enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// One value of the document. Containers are followed by their children; for an object
    /// the children alternate key, value.
    package struct Node {
        package var kind: Kind
        /// Strings: whether the contents contain escapes. Numbers: whether the literal is a
        /// plain integer (no fraction or exponent).
        package var flag: Bool
        /// Byte offset of the contents (strings: after the opening quote).
        package var start: Int32
        /// Byte offset one past the contents (strings: the closing quote).
        package var end: Int32
        /// Containers: the tape index just after the last descendant. Scalars: own index + 1.
        package var next: Int32
        /// Containers: the number of members (objects) or elements (arrays).
        package var count: Int32
        /// Objects: the index of their first member in ``JSONDocument/members``.
        package var members: Int32 = 0
    }

    /// One member of an object. An object's members are contiguous in ``members``, so a lookup
    /// reads them in sequence instead of hopping from value to value along the tape (a chain of
    /// dependent loads: for a CTR decoder's ~20 lookups in a ~30-member root, waiting on them
    /// would take a tenth of the ingest worker's CPU).
    package struct Member {
        /// Byte offset of the name's contents.
        package var nameStart: Int32
        /// Byte length of the name as written (escapes not decoded).
        package var nameLength: Int32
        /// The tape index of the value (the name's node is the one before it).
        package var value: Int32
        /// Whether the name contains escapes (compared decoded).
        package var escaped: Bool
    }

    /// The bytes the tape points into. Only valid inside `parse(_:_:)`.
    package let bytes: UnsafeRawBufferPointer
    /// The values, in document order; index 0 is the root.
    package let nodes: [Node]
    /// The members of every object, each object's together (`Node.members`).
    package let members: [Member]

    /// Parses `data` and runs `body` with the document.
    ///
    /// - Throws: `JSONDecodingError` with path `$` for malformed JSON, and whatever
    ///   `body` throws.
    package static func parse<R>(_ data: Data, _ body: (JSONDocument) throws -> R) throws -> R {
        try data.withUnsafeBytes { raw in try parse(bytes: raw, body) }
    }

    /// Parses the bytes and runs `body` with the document.
    ///
    /// - Throws: `JSONDecodingError` with path `$` for malformed JSON, and whatever
    ///   `body` throws.
    package static func parse<R>(bytes raw: UnsafeRawBufferPointer, _ body: (JSONDocument) throws -> R) throws -> R {
        var scanner = JSONScanner(bytes: raw)
        let (nodes, members) = try scanner.scanDocument()
        return try body(JSONDocument(bytes: raw, nodes: nodes, members: members))
    }

    /// The node at `index`: inlinable, as the decoders of other modules read one per member.
    @inlinable @inline(__always)
    package func node(_ index: Int) -> Node { nodes[index] }

    /// Materialises the string at `index`, decoding escapes.
    package func string(at index: Int) -> String {
        let node = nodes[index]
        let slice = UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
        if !node.flag {
            // The scanner validated the UTF-8, so decoding never repairs anything.
            return String(decoding: slice, as: UTF8.self)
        }
        return JSONScanner.unescape(slice)
    }

    /// Whether the string (key or value) at `index` equals `literal`, compared byte by byte.
    @inline(__always)
    package func stringEquals(_ index: Int, _ literal: StaticString) -> Bool {
        let node = nodes[index]
        if node.flag { return string(at: index) == literal.description }
        let length = Int(node.end - node.start)
        guard length == literal.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + Int(node.start), literal.utf8Start, length) == 0
    }

    /// The literal text of the node at `index` (numbers), as written in the document.
    package func literal(at index: Int) -> String {
        let node = nodes[index]
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)]), as: UTF8.self)
    }

    /// The JSON text of the value at `index`, exactly as it appears in the document.
    package func rawText(at index: Int) -> String {
        let node = nodes[index]
        switch node.kind {
        case .string:
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[Int(node.start) - 1..<Int(node.end) + 1]),
                as: UTF8.self)
        case .object, .array:
            // Containers span from their opening bracket to just past their closing one.
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)]), as: UTF8.self)
        default:
            return literal(at: index)
        }
    }

    /// Runs `body` with the bytes of the string at `index` (escapes not decoded).
    package func withStringBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let node = nodes[index]
        return body(UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)]))
    }
}
