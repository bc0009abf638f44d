import Foundation
import Testing

@testable import Primitives

@Suite("Civil dates")
struct CivilDateTests {
    @Test("day numbers round-trip and agree with Foundation for 1900-2200")
    func roundTrip() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = CivilDate.dayNumber(year: 1900, month: 1, day: 1)
        let end = CivilDate.dayNumber(year: 2200, month: 12, day: 31)
        for day in stride(from: start, through: end, by: 17) {
            let date = CivilDate(dayNumber: day)
            #expect(date.dayNumber == day)
            let components = calendar.dateComponents(
                [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(day) * 86400))
            #expect(components.year == date.year && components.month == date.month && components.day == date.day)
            #expect(components.weekday! - 1 == date.weekday.rawValue)
        }
    }

    @Test("parsing and formatting")
    func parsing() {
        #expect(CivilDate(parsing: "2026-02-29") == nil)
        #expect(CivilDate(parsing: "2024-02-29")?.description == "2024-02-29")
        #expect(CivilDate(parsing: "2024-2-29") == nil)
        #expect(CivilDate(year: 1970, month: 1, day: 1)?.dayNumber == 0)
        #expect(CivilDate(year: 1970, month: 1, day: 1)?.weekday == .thursday)
        #expect(CivilDate(dayNumber: -1).description == "1969-12-31")
    }
}
