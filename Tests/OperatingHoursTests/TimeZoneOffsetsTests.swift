import Foundation
import Testing

@testable import OperatingHours

@Suite("Time zone offset tables")
struct TimeZoneOffsetsTests {
    @Test(
        "offsets agree with Foundation",
        arguments: ["Asia/Tokyo", "America/New_York", "Europe/London", "Australia/Sydney"])
    func agreesWithFoundation(identifier: String) {
        let table = TimeZoneOffsets(identifier: identifier)!
        let zone = TimeZone(identifier: identifier)!
        var second: Int64 = -600_000_000
        while second < 4_200_000_000 {
            let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second)))
            #expect(table.offset(atUTC: second) == expected, "\(identifier) at \(second)")
            second += 7_919 * 61  // about 5.6 days, co-prime with days and hours
        }
    }

    @Test("transition instants are exact to the second")
    func exactTransitions() {
        let table = TimeZoneOffsets(identifier: "America/New_York")!
        let change = try! ZonedInstant(iso8601: "2026-03-08T07:00:00Z").secondsSinceEpoch
        #expect(table.offset(atUTC: change - 1) == -18_000)
        #expect(table.offset(atUTC: change) == -14_400)
        #expect(table.transitionCount > 300)
        #expect(TimeZoneOffsets(identifier: "Asia/Tokyo")!.offset(atUTC: 1_800_000_000) == 32_400)
        #expect(TimeZoneOffsets(identifier: "Not/AZone") == nil)
    }

    @Test("local wall-clock times map to instants, through gaps and repeats")
    func localToUTC() {
        let table = TimeZoneOffsets(identifier: "America/New_York")!
        func local(_ text: String) -> Int64 { try! ZonedInstant(iso8601: text + "Z").secondsSinceEpoch }
        #expect(table.utcSecond(forLocal: local("2026-07-01T12:00:00")) == local("2026-07-01T16:00:00"))
        // 02:30 does not exist on 2026-03-08: it becomes 03:30 EDT (07:30Z).
        #expect(table.utcSecond(forLocal: local("2026-03-08T02:30:00")) == local("2026-03-08T07:30:00"))
        // 01:30 happens twice on 2026-11-01: the first one (EDT) is taken.
        #expect(table.utcSecond(forLocal: local("2026-11-01T01:30:00")) == local("2026-11-01T05:30:00"))
    }
}
