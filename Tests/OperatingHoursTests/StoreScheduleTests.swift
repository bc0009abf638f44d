import Foundation
import Primitives
import Testing

@testable import OperatingHours

@Suite("Store schedules")
struct StoreScheduleTests {
    static let tokyo = TimeZoneOffsets(identifier: "Asia/Tokyo")!
    static let newYork = TimeZoneOffsets(identifier: "America/New_York")!

    func spans(_ texts: String...) -> [OpeningSpan] {
        texts.map { try! OpeningSpan(parsing: $0) }
    }

    func at(_ text: String) -> Date { try! ZonedInstant(iso8601: text).date }

    var izakaya: HoursProfile {
        HoursProfile(
            id: "izakaya",
            weekly: [
                .monday: spans("17:00-24:00"), .tuesday: spans("17:00-24:00"), .wednesday: spans("17:00-24:00"),
                .thursday: spans("17:00-24:00"), .friday: spans("17:00-26:00"), .saturday: spans("16:00-02:00"),
                .sunday: spans("16:00-23:00"),
            ],
            holiday: spans("16:00-23:00"),
            preHoliday: spans("17:00-26:00"),
            closures: [Closure(name: "年末年始休業", period: .annual(startMonth: 12, startDay: 31, endMonth: 1, endDay: 3))])
    }

    func schedule(_ profile: HoursProfile, zone: TimeZoneOffsets = tokyo) -> StoreSchedule {
        StoreSchedule(profile: profile, timeZone: zone, calendar: JapaneseHolidayCalendar.standard)
    }

    @Test("overnight spans belong to the day they start on, across a weekend into a holiday")
    func overnightIntoHoliday() {
        let store = schedule(izakaya)
        // Saturday 01:30 within Friday's 17:00-26:00.
        let saturday = store.decision(at: at("2026-01-10T01:30:00+09:00"))
        #expect(saturday.isOpen)
        #expect(saturday.day.date.description == "2026-01-09")
        #expect(saturday.dayType == .weekday)
        #expect(saturday.closesAt?.iso8601 == "2026-01-10T02:00:00+09:00")
        #expect(saturday.minutesUntilClose == 30)
        // Sunday before Coming of Age Day (Monday 2026-01-12) is a pre-holiday: open until 02:00.
        let sunday = store.decision(at: at("2026-01-11T23:30:00+09:00"))
        #expect(sunday.isOpen)
        #expect(sunday.dayType == .preHoliday)
        #expect(sunday.closesAt?.iso8601 == "2026-01-12T02:00:00+09:00")
        // Monday 01:00 is on the holiday's date but within Sunday's span.
        let early = store.decision(at: at("2026-01-12T01:00:00+09:00"))
        #expect(early.isOpen && early.dayType == .preHoliday && early.day.date.description == "2026-01-11")
        // Monday noon: a holiday, holiday hours 16:00-23:00.
        let noon = store.decision(at: at("2026-01-12T12:00:00+09:00"))
        #expect(!noon.isOpen)
        #expect(noon.dayType == .holiday)
        #expect(noon.holidayName == "成人の日")
        #expect(noon.nextOpenAt?.iso8601 == "2026-01-12T16:00:00+09:00")
        #expect(noon.closesAt == nil && noon.minutesUntilClose == nil)
    }

    @Test("the local date decides, not UTC: 2019-04-30T15:30Z is May 1st in Tokyo")
    func timeZoneOfHoliday() {
        let decision = schedule(izakaya).decision(at: at("2019-04-30T15:30:00Z"))
        #expect(decision.at.iso8601 == "2019-05-01T00:30:00+09:00")
        #expect(decision.holidayName == "天皇の即位の日")
        // 4/30 is itself a (citizens') holiday, so holiday hours 16:00-23:00 applied and ended.
        #expect(!decision.isOpen)
        #expect(decision.day.date.description == "2019-05-01" && decision.dayType == .holiday)
        #expect(decision.nextOpenAt?.iso8601 == "2019-05-01T16:00:00+09:00")
        let later = schedule(izakaya).decision(at: at("2019-05-01T03:00:00+09:00"))
        #expect(!later.isOpen && later.dayType == .holiday && later.holidayName == "天皇の即位の日")
    }

    @Test("a closure over New Year, with the next opening after it")
    func newYearClosure() {
        let store = schedule(izakaya)
        let eve = store.decision(at: at("2026-12-31T22:30:00+09:00"))
        #expect(!eve.isOpen)
        #expect(eve.dayType == .closure)
        #expect(eve.closureName == "年末年始休業")
        #expect(eve.nextOpenAt?.iso8601 == "2027-01-04T17:00:00+09:00")
        let newYear = store.decision(at: at("2027-01-01T12:00:00+09:00"))
        #expect(newYear.dayType == .closure && newYear.holidayName == "元日")
        // The 30th is an ordinary Wednesday; New Year's Eve is a pre-holiday but closed.
        #expect(store.day(CivilDate(parsing: "2026-12-30")!).dayType == .weekday)
    }

    @Test("Golden Week: a day both holiday and pre-holiday follows the precedence")
    func goldenWeek() {
        let may4 = CivilDate(parsing: "2026-05-04")!
        #expect(schedule(izakaya).day(may4).dayType == .holiday)
        #expect(schedule(izakaya).day(may4).spans == spans("16:00-23:00"))
        let preHolidayFirst = HoursProfile(
            id: "late", weekly: [:], holiday: spans("16:00-23:00"), preHoliday: spans("17:00-26:00"),
            precedence: [.override, .closure, .preHoliday, .holiday])
        let day = schedule(preHolidayFirst).day(may4)
        #expect(day.dayType == .preHoliday)
        #expect(day.spans == spans("17:00-26:00"))
        #expect(day.holiday?.nameJa == "みどりの日")
        // 5/6 (substitute holiday) is not a pre-holiday: 5/7 is an ordinary Thursday.
        #expect(schedule(preHolidayFirst).day(CivilDate(parsing: "2026-05-06")!).dayType == .holiday)
    }

    @Test("next opening is found across a five-day closure")
    func nextOpeningAcrossClosure() {
        let profile = HoursProfile(
            id: "sushi",
            weekly: [
                .tuesday: spans("12:00-14:00", "17:00-22:00"), .wednesday: spans("12:00-14:00", "17:00-22:00"),
                .thursday: spans("12:00-14:00", "17:00-22:00"), .friday: spans("12:00-14:00", "17:00-22:00"),
                .saturday: spans("12:00-14:00", "17:00-22:00"), .sunday: spans("12:00-21:00"),
            ],
            holiday: spans("12:00-21:00"),
            closures: [
                Closure(
                    name: "改装工事", period: .dates(CivilDate(parsing: "2027-02-08")!, CivilDate(parsing: "2027-02-12")!))
            ])
        let store = schedule(profile)
        let sunday = store.decision(at: at("2027-02-07T21:30:00+09:00"))
        #expect(!sunday.isOpen && sunday.dayType == .weekend)
        #expect(sunday.nextOpenAt?.iso8601 == "2027-02-13T12:00:00+09:00")
        // 2/11 (建国記念の日) is inside the closure: closure wins over holiday.
        let holiday = store.decision(at: at("2027-02-11T13:00:00+09:00"))
        #expect(!holiday.isOpen && holiday.dayType == .closure && holiday.holidayName == "建国記念の日")
        // Between lunch and dinner the next opening is the same day.
        let gap = store.decision(at: at("2027-02-13T15:00:00+09:00"))
        #expect(gap.nextOpenAt?.iso8601 == "2027-02-13T17:00:00+09:00")
        // While open, nextOpenAt is the opening after this span closes.
        let lunch = store.decision(at: at("2027-02-13T13:50:30+09:00"))
        #expect(lunch.isOpen && lunch.minutesUntilClose == 9)
        #expect(lunch.nextOpenAt?.iso8601 == "2027-02-13T17:00:00+09:00")
    }

    @Test("an override wins over a closure and a holiday")
    func override() {
        let profile = HoursProfile(
            id: "x", weekly: [:],
            closures: [Closure(name: "年末年始", period: .annual(startMonth: 12, startDay: 31, endMonth: 1, endDay: 3))],
            overrides: [DateOverride(date: CivilDate(parsing: "2027-01-02")!, spans: spans("10:00-15:00"), name: "初売り")]
        )
        let decision = schedule(profile).decision(at: at("2027-01-02T11:00:00+09:00"))
        #expect(decision.isOpen && decision.dayType == .override && decision.closureName == "初売り")
        #expect(decision.closesAt?.iso8601 == "2027-01-02T15:00:00+09:00")
    }

    @Test("touching spans chain into one opening; a store open around the clock has no closing time")
    func chaining() {
        let split = HoursProfile(id: "s", weekly: [.monday: spans("11:00-15:00", "15:00-22:00")])
        let decision = schedule(split).decision(at: at("2026-03-02T12:00:00+09:00"))
        #expect(decision.closesAt?.iso8601 == "2026-03-02T22:00:00+09:00")
        var always: [Weekday: [OpeningSpan]] = [:]
        for day in Weekday.allCases { always[day] = spans("00:00-24:00") }
        let open = schedule(HoursProfile(id: "24h", weekly: always)).decision(at: at("2026-03-02T12:00:00+09:00"))
        #expect(open.isOpen && open.closesAt == nil && open.nextOpenAt == nil)
    }

    @Test("a store that never opens has no next opening")
    func neverOpen() {
        let decision = schedule(HoursProfile(id: "none", weekly: [:])).decision(at: at("2026-03-02T12:00:00+09:00"))
        #expect(!decision.isOpen && decision.nextOpenAt == nil)
    }

    @Test("daylight saving time in America/New_York")
    func daylightSaving() {
        var weekly: [Weekday: [OpeningSpan]] = [:]
        for day in Weekday.allCases { weekly[day] = spans("09:00-17:00") }
        weekly[.saturday] = spans("09:00-17:00", "20:00-27:00")
        let store = StoreSchedule(
            profile: HoursProfile(id: "ny", weekly: weekly), timeZone: Self.newYork,
            calendar: ListHolidayCalendar(holidays: []))
        // Clocks go forward at 02:00 on Sunday 2026-03-08.
        let before = store.decision(at: at("2026-03-07T18:00:00-05:00"))
        #expect(!before.isOpen)
        #expect(before.nextOpenAt?.iso8601 == "2026-03-07T20:00:00-05:00")
        let night = store.decision(at: at("2026-03-08T01:30:00-05:00"))
        #expect(night.isOpen && night.day.date.description == "2026-03-07")
        #expect(night.closesAt?.iso8601 == "2026-03-08T03:00:00-04:00")
        #expect(night.minutesUntilClose == 30)  // 03:00 EDT is 30 minutes after 01:30 EST
        #expect(night.nextOpenAt?.iso8601 == "2026-03-08T09:00:00-04:00")
        let noon = store.decision(at: at("2026-03-08T16:00:00Z"))
        #expect(noon.at.iso8601 == "2026-03-08T12:00:00-04:00")
        #expect(noon.isOpen && noon.closesAt?.iso8601 == "2026-03-08T17:00:00-04:00")
        // Clocks go back at 02:00 on Sunday 2026-11-01.
        let fall = store.decision(at: at("2026-10-31T23:00:00-04:00"))
        #expect(fall.isOpen)
        #expect(fall.closesAt?.iso8601 == "2026-11-01T03:00:00-05:00")
        #expect(fall.minutesUntilClose == 300)
        let after = store.decision(at: at("2026-11-02T14:00:00Z"))
        #expect(after.at.iso8601 == "2026-11-02T09:00:00-05:00" && after.isOpen)
    }

    @Test("effective spans per day of a range, bounded to 366 days")
    func effectiveSpans() throws {
        let store = schedule(izakaya)
        let days = try store.effectiveSpans(
            from: CivilDate(parsing: "2026-12-28")!, to: CivilDate(parsing: "2027-01-04")!)
        #expect(days.count == 8)
        #expect(
            days.map(\.dayType) == [.weekday, .weekday, .weekday, .closure, .closure, .closure, .closure, .weekday])
        #expect(days.last?.spans == spans("17:00-24:00"))
        let interval = store.interval(of: spans("17:00-26:00")[0], on: CivilDate(parsing: "2027-01-08")!)
        #expect(interval.closes.iso8601 == "2027-01-09T02:00:00+09:00")
        #expect(throws: HoursError.rangeTooLong(days: 367, limit: 366)) {
            try store.effectiveSpans(from: CivilDate(parsing: "2026-01-01")!, to: CivilDate(parsing: "2027-01-02")!)
        }
        #expect(throws: HoursError.self) {
            try store.effectiveSpans(from: CivilDate(parsing: "2026-01-02")!, to: CivilDate(parsing: "2026-01-01")!)
        }
    }

    @Test("span parsing and its errors")
    func spanParsing() throws {
        #expect(try OpeningSpan(parsing: "17:00-02:00") == OpeningSpan(start: 1020, end: 1560))
        #expect(try OpeningSpan(parsing: "17:00-26:00").description == "17:00-26:00")
        #expect(try OpeningSpan(parsing: "00:00-24:00") == OpeningSpan(start: 0, end: 1440))
        #expect(throws: HoursFormatError.badTime("25:61")) { try OpeningSpan(parsing: "25:61-26:00") }
        #expect(throws: HoursFormatError.badTime("24:00")) { try OpeningSpan(parsing: "24:00-25:00") }
        #expect(throws: HoursFormatError.badSpan("noon")) { try OpeningSpan(parsing: "noon") }
        #expect(throws: HoursFormatError.emptySpan("10:00-10:00")) { try OpeningSpan(parsing: "10:00-10:00") }
        #expect(throws: HoursFormatError.spanTooLong("10:00-35:00")) { try OpeningSpan(parsing: "10:00-35:00") }
        #expect(throws: HoursFormatError.self) { try HoursProfile.checkDisjoint(spans("11:00-15:00", "14:00-16:00")) }
        let crossDay = HoursProfile(id: "x", weekly: [.friday: spans("17:00-26:00"), .saturday: spans("01:00-05:00")])
        #expect(throws: HoursFormatError.self) { try crossDay.validate() }
    }
}
