import Testing

@testable import Storage

/// `COPY … FROM STDIN`'s text format, worked out from PostgreSQL's documentation ("COPY", "Text
/// Format"): tab between columns, newline after a row, `\N` for null, a backslash before a
/// backslash, tab, newline or carriage return inside a value.
@Suite("COPY text rows: separators, nulls, escapes, timestamps")
struct CopyTextRowsTests {
    private func text(_ build: (inout CopyTextRows) -> Void) -> String {
        var rows = CopyTextRows()
        build(&rows)
        return String(decoding: rows.bytes, as: UTF8.self)
    }

    @Test("columns, rows and nulls")
    func separators() {
        let written = text { rows in
            rows.integer(42)
            rows.text(nil)
            rows.double(0.1)
            rows.endRow()
            rows.integer(-7)
            rows.double(nil)
            rows.integer(nil)
            rows.endRow()
        }
        #expect(written == "42\t\\N\t0.1\n-7\t\\N\t\\N\n")
    }

    @Test("a backslash, tab, newline and carriage return are escaped; other bytes pass as they are")
    func escapes() {
        #expect(text { $0.text("a\\b\tc\nd\re 予約,\"") } == "a\\\\b\\tc\\nd\\re 予約,\"")
    }

    @Test("doubles read back exactly: the shortest round-trip form")
    func doubles() {
        for value in [0.1, 1.0 / 3, 8.978076710303437, 1e-300, 123_456_789.125, -2.5e-7] {
            #expect(Double(text { $0.double(value) }) == value)
        }
    }

    @Test("timestamps in UTC, before and after 1970")
    func timestamps() {
        #expect(text { $0.timestamp(epochSeconds: 0) } == "1970-01-01 00:00:00+00")
        #expect(text { $0.timestamp(epochSeconds: -1) } == "1969-12-31 23:59:59+00")
        // 2026-11-26 15:00:00 UTC is midnight of 2026-11-27 in Tokyo: 20,783 days and 15 hours.
        #expect(text { $0.timestamp(epochSeconds: 20_783 * 86_400 + 15 * 3600) } == "2026-11-26 15:00:00+00")
        #expect(text { $0.timestamp(epochSeconds: 951_782_400 + 86_399) } == "2000-02-29 23:59:59+00")
    }
}
