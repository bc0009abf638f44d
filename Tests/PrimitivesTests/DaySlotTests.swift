import Testing

@testable import Primitives

@Suite("Day slots and day types")
struct DaySlotTests {
    @Test("a slot's clock counts from the business day's midnight, past 24:00 after it")
    func clock() {
        #expect(DaySlot(0).clock == "00:00")
        #expect(DaySlot(41).clock == "10:15")
        #expect(DaySlot(95).clock == "23:45")
        #expect(DaySlot(99).clock == "24:45")
        #expect(DaySlot(minutesAfterMidnight: 10 * 60 + 29) == DaySlot(41))
        #expect(DaySlot(41).secondsAfterMidnight == 36_900)
        #expect(DaySlot(3) < DaySlot(4))
    }

    @Test("day types sort as declared, so labels read weekday+holiday")
    func dayTypeOrder() {
        #expect([DayType.override, .holiday, .weekday, .closure, .preHoliday, .weekend].sorted() == DayType.allCases)
        #expect(DayType(rawValue: "pre_holiday") == .preHoliday)
    }
}
