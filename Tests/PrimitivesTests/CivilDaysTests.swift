import Primitives
import Testing

@Suite("CivilDays")
struct CivilDaysTests {
    // Day numbers worked out by hand: 1970-01-01 is day 0; 2000-03-01 is 30 years (7 leap days:
    // 1972…1996) + 2000-01-01…02-29 (60 days) later: 30 × 365 + 7 + 60 = 11,017.
    @Test(
        "known day numbers",
        arguments: [
            (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 3, 1, 11_017), (2000, 2, 29, 11_016), (1900, 3, 1, -25_508),
        ])
    func known(year: Int, month: Int, day: Int, number: Int) {
        #expect(CivilDays.dayNumber(year: year, month: month, day: day) == number)
        let civil = CivilDays.civil(dayNumber: number)
        #expect(civil.year == year && civil.month == month && civil.day == day)
    }

    @Test("round trip over four centuries, day by day")
    func roundTrip() {
        var expected = (year: 1800, month: 1, day: 1)
        var number = CivilDays.dayNumber(year: 1800, month: 1, day: 1)
        while expected.year < 2200 {
            let civil = CivilDays.civil(dayNumber: number)
            #expect(civil.year == expected.year && civil.month == expected.month && civil.day == expected.day)
            #expect(CivilDays.dayNumber(year: civil.year, month: civil.month, day: civil.day) == number)
            number += 1
            expected.day += 1
            if expected.day > CivilDays.daysInMonth(year: expected.year, month: expected.month) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 { (expected.month, expected.year) = (1, expected.year + 1) }
            }
        }
    }

    @Test("leap years follow the Gregorian rule")
    func leapYears() {
        #expect(CivilDays.isLeapYear(2024) && CivilDays.isLeapYear(2000))
        #expect(!CivilDays.isLeapYear(1900) && !CivilDays.isLeapYear(2026))
        #expect(CivilDays.daysInMonth(year: 2100, month: 2) == 28)
    }
}
