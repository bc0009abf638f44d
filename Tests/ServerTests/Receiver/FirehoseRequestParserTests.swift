import Foundation
import Testing

@testable import Server

@Suite("FirehoseRequestParser: the request body read as a stream")
struct FirehoseRequestParserTests {
    /// Parses `body` fed in pieces of `step` bytes.
    func parse(_ body: String, step: Int = .max, maximumRecordBytes: Int = 1_024_000) throws -> (
        FirehoseRequestParser, [FirehoseRecord]
    ) {
        var parser = FirehoseRequestParser(maximumRecordBytes: maximumRecordBytes)
        var records: [FirehoseRecord] = []
        let bytes = Array(body.utf8)
        var start = 0
        while start < bytes.count {
            let end = start + min(step, bytes.count - start)
            try bytes[start..<end].withUnsafeBytes { try parser.feed($0) }
            records += parser.takeRecords()
            start = end
        }
        try parser.finish()
        records += parser.takeRecords()
        return (parser, records)
    }

    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    @Test("the documented example, fed whole and one byte at a time")
    func documentedExample() throws {
        let body = """
            {
              "requestId": "ed4acda5-034f-9f42-bba1-f29aea6d7d8f",
              "timestamp": 1578090901599,
              "records": [
                {
                  "data": "aGVsbG8="
                },
                {
                  "data": "aGVsbG8gd29ybGQ="
                }
              ]
            }
            """
        for step in [Int.max, 1, 3, 7] {
            let (parser, records) = try parse(body, step: step)
            #expect(parser.requestId == "ed4acda5-034f-9f42-bba1-f29aea6d7d8f")
            #expect(parser.timestampMilliseconds == 1_578_090_901_599)
            #expect(
                records == [
                    FirehoseRecord(index: 0, content: .data(Array("hello".utf8))),
                    FirehoseRecord(index: 1, content: .data(Array("hello world".utf8))),
                ], "step \(step)")
        }
    }

    @Test("members in any order, unknown ones skipped, escapes decoded, timestamps in seconds or as strings")
    func tolerant() throws {
        let data = base64("{\"ContactId\":\"a/b\"}??>>")  // has '/' and '+' in its base64
        #expect(data.contains("/") || data.contains("+"))
        let escaped = data.replacingOccurrences(of: "/", with: "\\/")
        let body = """
            {"records": [{"extra": {"nested": [1, "x", null]}, "data": "\(escaped)"}, {"data": ""}],
             "unknown": [true, false, {"a": "}"}], "timestamp": "1578090901", "requestId": "id-\\u0031"}
            """
        for step in [Int.max, 1, 5] {
            let (parser, records) = try parse(body, step: step)
            #expect(parser.requestId == "id-1")
            #expect(parser.timestampMilliseconds == 1_578_090_901_000)
            #expect(records.count == 2)
            #expect(records.first?.content == .data(Array("{\"ContactId\":\"a/b\"}??>>".utf8)))
            #expect(records.last?.content == .data([]))
        }
    }

    @Test("a record that is not base64, has no data or is too large is invalid; the others are read")
    func invalidRecords() throws {
        let big = base64(String(repeating: "x", count: 2_000))
        let body = #"""
            {"requestId": "r", "records": [{"data": "aGVs!bG8="}, {"nodata": 1}, {"data": "\#(big)"},
            {"data": 42}, {"data": null}, {"data": "aGVsbG8"}]}
            """#
        let (_, records) = try parse(body, step: 4, maximumRecordBytes: 1_000)
        #expect(records.count == 6)
        guard records.count == 6 else { return }
        if case .invalid(let reason, let excerpt) = records[0].content {
            #expect(reason.contains("not valid base64"))
            #expect(reason.contains("'!'"))
            #expect(excerpt == Array("aGVs!bG8=".utf8))
        } else {
            Issue.record("bad base64 accepted")
        }
        #expect(records[1].content == .invalid(reason: "the record has no \"data\" member", excerpt: []))
        if case .invalid(let reason, let excerpt) = records[2].content {
            #expect(reason.contains("more than 1000 bytes"))
            #expect(excerpt.count > 0 && excerpt.allSatisfy { $0 == UInt8(ascii: "x") })
        } else {
            Issue.record("oversized record accepted")
        }
        #expect(
            records[3].content
                == .invalid(reason: "\"data\" must be a base64 string, not 42", excerpt: Array("42".utf8)))
        #expect(records[4].content == .invalid(reason: "the record has no \"data\" member", excerpt: []))
        #expect(records[5].content == .data(Array("hello".utf8)), "unpadded base64 is accepted")
        #expect(records.map(\.index) == Array(0..<6))
    }

    @Test(
        "bodies that are not Firehose requests are errors",
        arguments: [
            "", "[]", "\"records\"", "{}", "{\"records\": {}}", "{\"records\": \"x\"}", "{\"records\": [1]}",
            "{\"records\": [[]]}", "{\"records\": [{\"data\": \"aGk=\"}]", "{\"records\": []} {}", "{\"records\": [],}",
            "{\"records\" [] }", "{\"requestId\": {}, \"records\": []}", "{\"records\": [{\"data\": \"a\u{01}\"}]}",
        ])
    func malformed(body: String) {
        #expect(throws: FirehoseRequestError.self, "\(body)") { try parse(body) }
    }

    @Test("an empty records array is a valid request")
    func empty() throws {
        let (parser, records) = try parse(#"{"requestId":"x","timestamp":1,"records":[]}"#)
        #expect(records.isEmpty)
        #expect(parser.recordCount == 0)
    }
}
