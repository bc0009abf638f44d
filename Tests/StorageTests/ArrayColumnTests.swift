import ContactCenter
import Foundation
import NIOCore
import PostgresNIO
import Testing

// ContactRecordColumns is in the `Bench` SPI (for switchboard-bench), which a testable import does
// not open.
@_spi(Bench) @testable import Storage

/// The binds' bytes against PostgreSQL's binary array format, worked out by hand from its
/// documentation (`array_recv`: dimensions, has-nulls flag, element type OID, then per dimension
/// its length and lower bound; each element a big-endian int32 length, -1 for NULL, and its
/// bytes), without a database.
@Suite("Array binds in PostgreSQL's binary format")
struct ArrayColumnTests {
    private static func encoded<Element>(_ column: ArrayColumn<Element>) -> [UInt8] {
        var buffer = ByteBuffer()
        column.encode(into: &buffer, context: .default)
        return Array(buffer.readableBytesView)
    }

    /// The array header of a one-dimensional array of `count` elements of type `oid`.
    private static func header(oid: UInt8, _ high: UInt8 = 0, count: UInt8) -> [UInt8] {
        [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, high, oid, 0, 0, 0, count, 0, 0, 0, 1]
    }

    @Test("int4 and int8 elements: big-endian, NULL as length -1")
    func integers() {
        var int4 = ArrayColumn<Int32>(capacity: 3)
        int4.append(7)
        int4.append(nil)
        int4.append(-2)
        #expect(int4.count == 3)
        // int4 is OID 23.
        #expect(
            Self.encoded(int4)
                == Self.header(oid: 23, count: 3) + [0, 0, 0, 4, 0, 0, 0, 7] + [0xFF, 0xFF, 0xFF, 0xFF]
                + [0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFE])
        var int8 = ArrayColumn<Int64>()
        int8.append(0x0102_0304_0506)
        // int8 is OID 20.
        #expect(Self.encoded(int8) == Self.header(oid: 20, count: 1) + [0, 0, 0, 8, 0, 0, 1, 2, 3, 4, 5, 6])
    }

    @Test("text elements are their UTF-8 bytes; timestamptz is microseconds since 2000-01-01 UTC")
    func textAndTimes() {
        var text = ArrayColumn<String>()
        text.append("é!")
        text.append(nil)
        text.append("")
        // text is OID 25; "é" is C3 A9.
        #expect(
            Self.encoded(text)
                == Self.header(oid: 25, count: 3) + [0, 0, 0, 3, 0xC3, 0xA9, 0x21] + [0xFF, 0xFF, 0xFF, 0xFF]
                + [0, 0, 0, 0])
        var times = ArrayColumn<UTCTimestamp>()
        // 2000-01-01T00:00:01.5Z: 1,500,000 µs = 0x16E360; 1999-12-31T23:59:59Z: -1,000,000 µs.
        times.append(UTCTimestamp(iso8601: "2000-01-01T00:00:01.500Z"))
        times.append(UTCTimestamp(iso8601: "1999-12-31T23:59:59Z"))
        // timestamptz is OID 1184 = 0x04A0.
        #expect(
            Self.encoded(times)
                == Self.header(oid: 0xA0, 0x04, count: 2) + [0, 0, 0, 8, 0, 0, 0, 0, 0, 0x16, 0xE3, 0x60]
                + [0, 0, 0, 8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xBD, 0xC0])
    }

    @Test("jsonb elements: version 1, then the text; an element written in place gets its length")
    func jsonb() {
        var column = ArrayColumn<JSONBValue>()
        column.append(JSONBValue(bytes: Data("{}".utf8)))
        column.appendWritten { bytes in
            bytes.append(1)
            bytes.append(contentsOf: Array("[1]".utf8))
        }
        // jsonb is OID 3802 = 0x0EDA.
        #expect(
            Self.encoded(column)
                == Self.header(oid: 0xDA, 0x0E, count: 2) + [0, 0, 0, 3, 1, 0x7B, 0x7D] + [
                    0, 0, 0, 4, 1, 0x5B, 0x31, 0x5D,
                ])
    }

    @Test("attributes as JSON: members in jsonb's order, escapes as JSON requires, other bytes as they are")
    func attributesJSON() {
        let attributes = ["aa": "\n\u{01}é\u{7F}", "b": #"x"y"#, "": #"\"#, "storeId": "shibuya-01"]
        // Shorter names first, then by bytes: "", "b", "aa", "storeId". The escaped bytes: a
        // newline, 0x01, a quote and a backslash; 0x7F and é pass as they are.
        let expected = #"{"":"\\","b":"x\"y","aa":"\n\u0001é"# + "\u{7F}" + #"","storeId":"shibuya-01"}"#
        #expect(String(decoding: ContactRecordColumns.json(attributes), as: UTF8.self) == expected)
        #expect(String(decoding: ContactRecordColumns.json([:]), as: UTF8.self) == "{}")
    }

    @Test("rows are locked in ContactId byte order: a prefix first, bytes not Unicode's canonical order")
    func contactIDByteOrder() {
        let ids = ["b", "ab", "a", "", "é", "e\u{301}", "Z", "a\u{0}"]
        // By UTF-8 bytes: "" < "Z" (5A) < "a" < "a\0" < "ab" < "b" < "e\u{301}" (65 CC 81) < "é" (C3 A9);
        // Swift's `<` and `==` call "é" and "e\u{301}" equal (canonically equivalent), so the
        // order is compared as bytes.
        let sorted = ids.sorted(by: ContactRecordColumns.bytesPrecede)
        #expect(
            sorted.map { Array($0.utf8) }
                == ["", "Z", "a", "a\u{0}", "ab", "b", "e\u{301}", "é"].map { Array($0.utf8) })
        for a in ids {
            for b in ids {
                #expect(
                    ContactRecordColumns.bytesPrecede(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) \(b)")
            }
        }
    }

    @Test("a batch's rows in ContactId byte order: ids decided by their first 16 bytes, or whole past them")
    func contactIDOrder() {
        // UUIDs, ids sharing their first 16 bytes (decided past them), ids ending inside the
        // prefix, NULs (equal to the prefix's padding), and canonically equivalent spellings.
        let uuid = "5ca32fbd-8f92-46af-92a5-6b0f970f0efe"
        let ids = [
            uuid, "0ca32fbd-8f92-46af-92a5-6b0f970f0efe", "5ca32fbd-8f92-46af-92a5-6b0f970f0efd", uuid + "0",
            "5ca32fbd-8f92-46", "5ca32fbd-8f92-46\u{0}", "5ca32fbd-8f92-4", "5ca32fbd-8f92-4\u{0}\u{0}", "",
            "\u{0}", "é", "e\u{301}", "ffffffffffffffffffffffff", "fffffffffffffffffffffffe", "Z", "a",
        ]
        let rows = ids.enumerated().map { index, id in
            IngestBatch.Sourced(
                value: ContactTraceRecord(
                    contactId: id, initiationTimestamp: UTCTimestamp(millisecondsSince1970: 0),
                    lastUpdateTimestamp: UTCTimestamp(millisecondsSince1970: 0)),
                partition: 0, offset: Int64(index), topic: "t", key: nil)
        }
        let order = rows.withUnsafeBufferPointer { ContactRecordColumns.contactIDOrder($0) }
        let expected = ids.indices.sorted { ids[$0].utf8.lexicographicallyPrecedes(ids[$1].utf8) }
        #expect(order.map { Array(ids[$0].utf8) } == expected.map { Array(ids[$0].utf8) })
        #expect(Set(order) == Set(ids.indices))
    }
}
