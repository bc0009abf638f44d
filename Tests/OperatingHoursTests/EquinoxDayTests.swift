import Testing

@testable import OperatingHours

@Suite("Equinox days")
struct EquinoxDayTests {
    /// Dates announced by the National Astronomical Observatory of Japan (官報).
    static let vernal: [Int: Int] = [
        2000: 20, 2001: 20, 2002: 21, 2003: 21, 2004: 20, 2005: 20, 2006: 21, 2007: 21, 2008: 20, 2009: 20,
        2010: 21, 2011: 21, 2012: 20, 2013: 20, 2014: 21, 2015: 21, 2016: 20, 2017: 20, 2018: 21, 2019: 21,
        2020: 20, 2021: 20, 2022: 21, 2023: 21, 2024: 20, 2025: 20, 2026: 20, 2027: 21,
        1949: 21, 1960: 20, 1979: 21, 1988: 20,
    ]
    static let autumnal: [Int: Int] = [
        2000: 23, 2001: 23, 2002: 23, 2003: 23, 2004: 23, 2005: 23, 2006: 23, 2007: 23, 2008: 23, 2009: 23,
        2010: 23, 2011: 23, 2012: 22, 2013: 23, 2014: 23, 2015: 23, 2016: 22, 2017: 23, 2018: 23, 2019: 23,
        2020: 22, 2021: 23, 2022: 23, 2023: 23, 2024: 22, 2025: 23, 2026: 23, 2027: 23,
        1948: 23, 1979: 24, 1980: 23,
    ]

    @Test("vernal equinox days of known years")
    func vernalDays() {
        for (year, day) in Self.vernal { #expect(EquinoxDay.vernal(year: year) == day, "\(year)") }
    }

    @Test("autumnal equinox days of known years")
    func autumnalDays() {
        for (year, day) in Self.autumnal { #expect(EquinoxDay.autumnal(year: year) == day, "\(year)") }
    }

    @Test("formulas cover 1900...2150 only")
    func coverage() {
        #expect(EquinoxDay.vernal(year: 1899) == nil)
        #expect(EquinoxDay.autumnal(year: 2151) == nil)
        #expect(EquinoxDay.vernal(year: 2100) != nil)
    }
}
