import Foundation
import Primitives
import Testing

@Suite("CivilDate in a time zone")
struct CivilDateTimeZoneTests {
    @Test("the date an instant falls on: Tokyo's midnight is 15:00 UTC the day before")
    func tokyo() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        // 2026-11-28T15:00:00Z = 1_795_878_000 s: midnight of the 29th in Tokyo.
        #expect(CivilDate.of(Date(timeIntervalSince1970: 1_795_878_000), in: tokyo).description == "2026-11-29")
        #expect(CivilDate.of(Date(timeIntervalSince1970: 1_795_877_999), in: tokyo).description == "2026-11-28")
        let utc = try #require(TimeZone(identifier: "UTC"))
        // Before 1970 the day still starts at midnight: −1 s is 1969-12-31.
        #expect(CivilDate.of(Date(timeIntervalSince1970: -1), in: utc).description == "1969-12-31")
    }
}
