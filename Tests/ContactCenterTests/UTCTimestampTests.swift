import Foundation
import Primitives
import Testing

@testable import ContactCenter

@Suite("UTCTimestamp")
struct UTCTimestampTests {
    @Test(
        "parses the accepted forms",
        arguments: [
            ("2026-11-20T09:15:02Z", 1_795_166_102_000 as Int64),
            ("2026-11-20T09:15:02.123Z", 1_795_166_102_123),
            ("2026-11-20T09:15:02.1Z", 1_795_166_102_100),
            ("2026-11-20T09:15:02.123456789Z", 1_795_166_102_123),
            ("2026-11-20T18:15:02+09:00", 1_795_166_102_000),
            ("2026-11-20T18:15:02.5+0900", 1_795_166_102_500),
            ("2026-11-20t09:15:02z", 1_795_166_102_000),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59.999Z", -1),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ])
    func parses(text: String, milliseconds: Int64) {
        #expect(UTCTimestamp(iso8601: text)?.millisecondsSince1970 == milliseconds)
    }

    @Test(
        "rejects what is not a timestamp",
        arguments: [
            "", "2026-11-20", "2026-11-20T09:15Z", "2026-11-20 09:15:02Z", "2026-11-20T09:15:02",
            "2026-13-20T09:15:02Z", "2026-02-29T09:15:02Z", "2026-11-31T09:15:02Z", "2026-11-20T24:00:00Z",
            "2026-11-20T09:60:00Z", "2026-11-20T09:15:60Z", "2026-11-20T09:15:02.Z", "2026-11-20T09:15:02.1234567890Z",
            "2026-11-20T09:15:02Zjunk", "２０２６-11-20T09:15:02Z", "2026-11-20T09:15:02+9:00",
        ])
    func rejects(text: String) {
        #expect(UTCTimestamp(iso8601: text) == nil)
    }

    @Test("agrees with ISO8601DateFormatter over many instants")
    func agreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)
            let timestamp = UTCTimestamp(millisecondsSince1970: milliseconds)
            let text = timestamp.iso8601Milliseconds
            #expect(text == formatter.string(from: timestamp.date))
            #expect(UTCTimestamp(iso8601: text) == timestamp)
            #expect(UTCTimestamp(iso8601: timestamp.iso8601) == timestamp)
        }
    }

    @Test("formats seconds precision when milliseconds are zero")
    func formats() {
        #expect(UTCTimestamp(millisecondsSince1970: 1_795_166_102_000).iso8601 == "2026-11-20T09:15:02Z")
        #expect(UTCTimestamp(millisecondsSince1970: 1_795_166_102_007).iso8601 == "2026-11-20T09:15:02.007Z")
        #expect(UTCTimestamp(millisecondsSince1970: -1).iso8601 == "1969-12-31T23:59:59.999Z")
    }

    @Test("is Codable as an ISO 8601 string")
    func codable() throws {
        let timestamp = UTCTimestamp(iso8601: "2026-11-20T09:15:02.123Z")!
        let data = try JSONEncoder().encode([timestamp])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-11-20T09:15:02.123Z"]"#)
        #expect(try JSONDecoder().decode([UTCTimestamp].self, from: data) == [timestamp])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([UTCTimestamp].self, from: Data(#"["soon"]"#.utf8))
        }
    }

    @Test("converts to and from Date at millisecond precision")
    func dates() {
        let timestamp = UTCTimestamp(iso8601: "2026-11-20T09:15:02.123Z")!
        #expect(UTCTimestamp(timestamp.date) == timestamp)
        #expect(timestamp.secondsSince1970 == 1_795_166_102)
        #expect(UTCTimestamp(millisecondsSince1970: -1).secondsSince1970 == -1)
    }
}
