import Testing

@testable import OperatingHours

@Suite("ISO 8601 instants")
struct ZonedInstantTests {
    @Test("accepts Z and offsets, with or without fractional seconds")
    func accepts() throws {
        let base = try ZonedInstant(iso8601: "2026-12-31T13:30:00Z").secondsSinceEpoch
        for text in [
            "2026-12-31T22:30:00+09:00", "2026-12-31T22:30:00.123+09:00", "2026-12-31T13:30:00.5Z",
            "2026-12-31T22:30:00+0900", "2026-12-31t13:30:00z", "2026-12-31T08:30:00-05:00",
        ] {
            #expect(try ZonedInstant(iso8601: text).secondsSinceEpoch == base, "\(text)")
        }
        #expect(try ZonedInstant(iso8601: "2026-12-31T22:30:00+09:00").iso8601 == "2026-12-31T22:30:00+09:00")
        #expect(try ZonedInstant(iso8601: "2026-12-31T13:30:00Z").iso8601 == "2026-12-31T13:30:00+00:00")
        #expect(ZonedInstant(secondsSinceEpoch: 0, utcOffset: -12_600).iso8601 == "1969-12-31T20:30:00-03:30")
    }

    @Test(
        "rejects garbage with a clear error",
        arguments: [
            "", "garbage", "2026-12-31", "2026-12-31T22:30", "2026-12-31T22:30:00", "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z", "2026-12-31T25:00:00Z", "2026-12-31T22:30:00+09:00 trailing",
            "2026-12-31T22:30:00.Z",
            "2026-12-31T22:30:00+25:00",
        ])
    func rejects(text: String) {
        #expect(throws: InstantParseError.self) { try ZonedInstant(iso8601: text) }
    }

    @Test("error messages say how to fix the text")
    func messages() {
        do {
            _ = try ZonedInstant(iso8601: "2026-12-31T22:30:00")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("+09:00"))
        }
    }
}
