import ContactCenter
import Foundation
import NIOCore
import PostgresNIO

/// One column of a batch, sent as a single binary PostgreSQL array bind and spread into rows with
/// `unnest`. Elements may be NULL, which postgres-nio's own array encoding cannot express.
///
/// Binary binds matter: with text-format arrays, formatting the values makes the client the
/// bottleneck.
struct ArrayColumn<Element: ArrayColumnElement>: PostgresNonThrowingEncodable, PostgresDynamicTypeEncodable {
    static var psqlType: PostgresDataType { Element.arrayType }
    static var psqlFormat: PostgresFormat { .binary }

    /// The elements in the array's binary format. An array of bytes, not a `ByteBuffer`: a
    /// contact record batch appends 43 small values per row, each a length and its bytes, and
    /// each `ByteBuffer` write pays for its bounds, uniqueness and exclusivity checks (a tenth of
    /// the binds' CPU).
    private var elements: [UInt8] = []
    private(set) var count = 0
    /// Bytes the statement's bind buffer reserves before this column writes itself: set on a
    /// statement's first column to the size of all its binds, so that the buffer is allocated
    /// once at its final size instead of doubling a dozen times (each step copying what was
    /// written into fresh pages and leaving the old ones to the allocator).
    var reservesForStatement = 0

    /// The bytes this column's bind takes: its length, the array header and the elements.
    var encodedByteCount: Int { 4 + 20 + elements.count }

    /// An empty column with room for `capacity` elements of `typicalSize` bytes (length included).
    init(capacity: Int = 0, typicalSize: Int = Element.typicalSize) {
        elements.reserveCapacity(capacity * typicalSize)
    }

    mutating func append(_ value: Element?) {
        guard let value else {
            count += 1
            Int32(-1).append(to: &elements)
            return
        }
        appendWritten { value.append(to: &$0) }
    }

    /// Appends an element that `write` appends itself (its binary form, without the length):
    /// for values built for the column only, which would otherwise be built and then copied.
    mutating func appendWritten(_ write: (inout [UInt8]) -> Void) {
        count += 1
        let lengthIndex = elements.count
        Int32(0).append(to: &elements)
        write(&elements)
        let length = Int32(elements.count - lengthIndex - 4)
        elements.withUnsafeMutableBufferPointer { bytes in
            UnsafeMutableRawPointer(bytes.baseAddress! + lengthIndex).storeBytes(
                of: length.bigEndian, as: Int32.self)
        }
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        if reservesForStatement > 0 { buffer.reserveCapacity(minimumWritableBytes: reservesForStatement) }
        Element.writeArrayHeader(count: count, into: &buffer)
        buffer.writeBytes(elements)
    }
}

/// One column of a batch written straight from the batch's rows into the statement's bind when
/// the statement is encoded, in `order` (indices into `rows`).
///
/// For the contact record upsert's `raw` column (2–4 KB per CTR): gathered in a buffer of its own
/// first (``ArrayColumn``), every value would be copied twice, into megabytes of freshly faulted
/// pages per transaction (that copy alone would be about a fifth of the worker's CPU).
struct RowColumn<Row: Sendable, Element: ArrayColumnElement>: PostgresNonThrowingEncodable,
    PostgresDynamicTypeEncodable
{
    static var psqlType: PostgresDataType { Element.arrayType }
    static var psqlFormat: PostgresFormat { .binary }

    let rows: [Row]
    let order: [Int]
    /// The column's value of a row, read through a pointer: a row passed by value is copied
    /// (a CTR is ~500 bytes and 30 references to retain).
    let value: @Sendable (UnsafePointer<Row>) -> Element?

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        buffer.reserveCapacity(minimumWritableBytes: 20 + order.count * (4 + Element.typicalSize))
        Element.writeArrayHeader(count: order.count, into: &buffer)
        rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }  // no rows, so `order` is empty
            for index in order { Element.writeElement(value(base + index), into: &buffer) }
        }
    }
}

/// A value that can be an element of an ``ArrayColumn``, in PostgreSQL's binary format.
protocol ArrayColumnElement {
    static var elementType: PostgresDataType { get }
    static var arrayType: PostgresDataType { get }
    static var typicalSize: Int { get }
    /// Appends the element's binary form (without its length).
    func append(to bytes: inout [UInt8])
    /// Writes the element's binary form (without its length); by default through
    /// ``append(to:)``. ``RowColumn``'s elements (the `raw` JSON) write themselves.
    func write(into buffer: inout ByteBuffer)
}

extension ArrayColumnElement {
    func write(into buffer: inout ByteBuffer) {
        var bytes: [UInt8] = []
        append(to: &bytes)
        buffer.writeBytes(bytes)
    }
}

extension ArrayColumnElement {
    /// The header of a one-dimensional array of `count` elements of this type (binary format).
    static func writeArrayHeader(count: Int, into buffer: inout ByteBuffer) {
        buffer.writeInteger(1, as: Int32.self)  // dimensions
        buffer.writeInteger(1, as: Int32.self)  // has nulls (allowed either way)
        buffer.writeInteger(elementType.rawValue, as: UInt32.self)
        buffer.writeInteger(Int32(count), as: Int32.self)  // length of the dimension
        buffer.writeInteger(1, as: Int32.self)  // lower bound
    }

    /// One element of such an array: its length and bytes, or -1 for `nil`.
    @inline(__always)
    static func writeElement(_ value: Self?, into buffer: inout ByteBuffer) {
        guard let value else {
            buffer.writeInteger(-1, as: Int32.self)
            return
        }
        let lengthIndex = buffer.writerIndex
        buffer.writeInteger(0, as: Int32.self)
        let start = buffer.writerIndex
        value.write(into: &buffer)
        buffer.setInteger(Int32(buffer.writerIndex - start), at: lengthIndex, as: Int32.self)
    }
}

extension String: ArrayColumnElement {
    static var elementType: PostgresDataType { .text }
    static var arrayType: PostgresDataType { .textArray }
    static var typicalSize: Int { 40 }
    func append(to bytes: inout [UInt8]) { bytes.append(contentsOf: utf8) }
}

extension Int32: ArrayColumnElement {
    static var elementType: PostgresDataType { .int4 }
    static var arrayType: PostgresDataType { .int4Array }
    static var typicalSize: Int { 8 }
    func append(to bytes: inout [UInt8]) { withUnsafeBytes(of: bigEndian) { bytes.append(contentsOf: $0) } }
}

extension Int64: ArrayColumnElement {
    static var elementType: PostgresDataType { .int8 }
    static var arrayType: PostgresDataType { .int8Array }
    static var typicalSize: Int { 12 }
    func append(to bytes: inout [UInt8]) { withUnsafeBytes(of: bigEndian) { bytes.append(contentsOf: $0) } }
}

extension Double: ArrayColumnElement {
    static var elementType: PostgresDataType { .float8 }
    static var arrayType: PostgresDataType { .float8Array }
    static var typicalSize: Int { 12 }
    func append(to bytes: inout [UInt8]) { Int64(bitPattern: bitPattern).append(to: &bytes) }
}

extension UTCTimestamp: ArrayColumnElement {
    static var elementType: PostgresDataType { .timestamptz }
    static var arrayType: PostgresDataType { .timestamptzArray }
    static var typicalSize: Int { 12 }
    /// Microseconds since 2000-01-01T00:00:00Z, PostgreSQL's binary timestamp.
    func append(to bytes: inout [UInt8]) { ((millisecondsSince1970 - 946_684_800_000) * 1000).append(to: &bytes) }
}

/// JSON text sent as `jsonb` (binary format: a version byte, then the text).
struct JSONBValue: ArrayColumnElement {
    var bytes: Data
    static var elementType: PostgresDataType { .jsonb }
    static var arrayType: PostgresDataType { .jsonbArray }
    static var typicalSize: Int { 2_800 }
    func append(to bytes: inout [UInt8]) {
        bytes.append(1)
        bytes.append(contentsOf: self.bytes)
    }
    func write(into buffer: inout ByteBuffer) {
        buffer.writeInteger(1, as: UInt8.self)
        buffer.writeBytes(bytes)
    }
}

/// Raw bytes sent as `bytea`.
struct ByteaValue: ArrayColumnElement {
    var bytes: [UInt8]
    static var elementType: PostgresDataType { .bytea }
    static var arrayType: PostgresDataType { .byteaArray }
    static var typicalSize: Int { 256 }
    func append(to bytes: inout [UInt8]) { bytes.append(contentsOf: self.bytes) }
}
