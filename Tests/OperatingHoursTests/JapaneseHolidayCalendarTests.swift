import Foundation
import Primitives
import Testing

@testable import OperatingHours

@Suite("Japanese national holidays")
struct JapaneseHolidayCalendarTests {
    let calendar = JapaneseHolidayCalendar.standard

    func date(_ text: String) -> CivilDate { CivilDate(parsing: text)! }

    func listing(_ year: Int) -> [String] {
        calendar.holidays(inYear: year).map { "\($0.date) \($0.nameJa) \($0.kind.rawValue)" }
    }

    // MARK: Full years, written out by hand from the law

    static let expectedYears: [Int: [String]] = [
        1973: [
            "1973-01-01 元日 national", "1973-01-15 成人の日 national", "1973-02-11 建国記念の日 national",
            "1973-03-21 春分の日 national", "1973-04-29 天皇誕生日 national", "1973-04-30 振替休日 substitute",
            "1973-05-03 憲法記念日 national", "1973-05-05 こどもの日 national", "1973-09-15 敬老の日 national",
            "1973-09-23 秋分の日 national", "1973-09-24 振替休日 substitute", "1973-10-10 体育の日 national",
            "1973-11-03 文化の日 national", "1973-11-23 勤労感謝の日 national",
        ],
        1988: [
            "1988-01-01 元日 national", "1988-01-15 成人の日 national", "1988-02-11 建国記念の日 national",
            "1988-03-20 春分の日 national", "1988-03-21 振替休日 substitute", "1988-04-29 天皇誕生日 national",
            "1988-05-03 憲法記念日 national", "1988-05-04 国民の休日 citizens", "1988-05-05 こどもの日 national",
            "1988-09-15 敬老の日 national", "1988-09-23 秋分の日 national", "1988-10-10 体育の日 national",
            "1988-11-03 文化の日 national", "1988-11-23 勤労感謝の日 national",
        ],
        2007: [
            "2007-01-01 元日 national", "2007-01-08 成人の日 national", "2007-02-11 建国記念の日 national",
            "2007-02-12 振替休日 substitute", "2007-03-21 春分の日 national", "2007-04-29 昭和の日 national",
            "2007-04-30 振替休日 substitute", "2007-05-03 憲法記念日 national", "2007-05-04 みどりの日 national",
            "2007-05-05 こどもの日 national", "2007-07-16 海の日 national", "2007-09-17 敬老の日 national",
            "2007-09-23 秋分の日 national", "2007-09-24 振替休日 substitute", "2007-10-08 体育の日 national",
            "2007-11-03 文化の日 national", "2007-11-23 勤労感謝の日 national", "2007-12-23 天皇誕生日 national",
            "2007-12-24 振替休日 substitute",
        ],
        2019: [
            "2019-01-01 元日 national", "2019-01-14 成人の日 national", "2019-02-11 建国記念の日 national",
            "2019-03-21 春分の日 national", "2019-04-29 昭和の日 national", "2019-04-30 国民の休日 citizens",
            "2019-05-01 天皇の即位の日 one_off", "2019-05-02 国民の休日 citizens", "2019-05-03 憲法記念日 national",
            "2019-05-04 みどりの日 national", "2019-05-05 こどもの日 national", "2019-05-06 振替休日 substitute",
            "2019-07-15 海の日 national", "2019-08-11 山の日 national", "2019-08-12 振替休日 substitute",
            "2019-09-16 敬老の日 national", "2019-09-23 秋分の日 national", "2019-10-14 体育の日 national",
            "2019-10-22 即位礼正殿の儀 one_off", "2019-11-03 文化の日 national", "2019-11-04 振替休日 substitute",
            "2019-11-23 勤労感謝の日 national",
        ],
        2020: [
            "2020-01-01 元日 national", "2020-01-13 成人の日 national", "2020-02-11 建国記念の日 national",
            "2020-02-23 天皇誕生日 national", "2020-02-24 振替休日 substitute", "2020-03-20 春分の日 national",
            "2020-04-29 昭和の日 national", "2020-05-03 憲法記念日 national", "2020-05-04 みどりの日 national",
            "2020-05-05 こどもの日 national", "2020-05-06 振替休日 substitute", "2020-07-23 海の日 national",
            "2020-07-24 スポーツの日 national", "2020-08-10 山の日 national", "2020-09-21 敬老の日 national",
            "2020-09-22 秋分の日 national", "2020-11-03 文化の日 national", "2020-11-23 勤労感謝の日 national",
        ],
        2021: [
            "2021-01-01 元日 national", "2021-01-11 成人の日 national", "2021-02-11 建国記念の日 national",
            "2021-02-23 天皇誕生日 national", "2021-03-20 春分の日 national", "2021-04-29 昭和の日 national",
            "2021-05-03 憲法記念日 national", "2021-05-04 みどりの日 national", "2021-05-05 こどもの日 national",
            "2021-07-22 海の日 national", "2021-07-23 スポーツの日 national", "2021-08-08 山の日 national",
            "2021-08-09 振替休日 substitute", "2021-09-20 敬老の日 national", "2021-09-23 秋分の日 national",
            "2021-11-03 文化の日 national", "2021-11-23 勤労感謝の日 national",
        ],
        2026: [
            "2026-01-01 元日 national", "2026-01-12 成人の日 national", "2026-02-11 建国記念の日 national",
            "2026-02-23 天皇誕生日 national", "2026-03-20 春分の日 national", "2026-04-29 昭和の日 national",
            "2026-05-03 憲法記念日 national", "2026-05-04 みどりの日 national", "2026-05-05 こどもの日 national",
            "2026-05-06 振替休日 substitute", "2026-07-20 海の日 national", "2026-08-11 山の日 national",
            "2026-09-21 敬老の日 national", "2026-09-22 国民の休日 citizens", "2026-09-23 秋分の日 national",
            "2026-10-12 スポーツの日 national", "2026-11-03 文化の日 national", "2026-11-23 勤労感謝の日 national",
        ],
        2033: [
            "2033-01-01 元日 national", "2033-01-10 成人の日 national", "2033-02-11 建国記念の日 national",
            "2033-02-23 天皇誕生日 national", "2033-03-20 春分の日 national", "2033-03-21 振替休日 substitute",
            "2033-04-29 昭和の日 national", "2033-05-03 憲法記念日 national", "2033-05-04 みどりの日 national",
            "2033-05-05 こどもの日 national", "2033-07-18 海の日 national", "2033-08-11 山の日 national",
            "2033-09-19 敬老の日 national", "2033-09-23 秋分の日 national", "2033-10-10 スポーツの日 national",
            "2033-11-03 文化の日 national", "2033-11-23 勤労感謝の日 national",
        ],
        2050: [
            "2050-01-01 元日 national", "2050-01-10 成人の日 national", "2050-02-11 建国記念の日 national",
            "2050-02-23 天皇誕生日 national", "2050-03-20 春分の日 national", "2050-03-21 振替休日 substitute",
            "2050-04-29 昭和の日 national", "2050-05-03 憲法記念日 national", "2050-05-04 みどりの日 national",
            "2050-05-05 こどもの日 national", "2050-07-18 海の日 national", "2050-08-11 山の日 national",
            "2050-09-19 敬老の日 national", "2050-09-23 秋分の日 national", "2050-10-10 スポーツの日 national",
            "2050-11-03 文化の日 national", "2050-11-23 勤労感謝の日 national",
        ],
    ]

    @Test("full years match the hand-written lists", arguments: [1973, 1988, 2007, 2019, 2020, 2021, 2026, 2033, 2050])
    func fullYear(year: Int) {
        #expect(listing(year) == Self.expectedYears[year]!)
    }

    @Test("every holiday 1955-2050 matches an independent brute-force engine")
    func matchesReferenceEngine() {
        for year in 1955...2050 {
            let expected = ReferenceHolidayEngine.holidays(year: year).map(\.description)
            let actual = calendar.holidays(inYear: year).map { "\($0.date) \($0.nameJa) \($0.kind.rawValue)" }
            #expect(actual == expected, "year \(year)")
        }
    }

    @Test("holidays per year 1955-2050 are plausible and never on the same date twice")
    func countsPerYear() {
        for year in 1955...2050 {
            let holidays = calendar.holidays(inYear: year)
            #expect(Set(holidays.map(\.date)).count == holidays.count)
            #expect((9...23).contains(holidays.count), "year \(year): \(holidays.count)")
        }
        #expect(calendar.holidays(inYear: 1955).count == 9)
        #expect(calendar.holidays(inYear: 2019).count == 22)
    }

    // MARK: Hard cases

    @Test("1973-02-12 has no substitute yet; 1973-04-30 is the first")
    func firstSubstitute() {
        #expect(calendar.holiday(on: date("1973-02-11"))?.nameJa == "建国記念の日")
        #expect(calendar.holiday(on: date("1973-02-12")) == nil)
        #expect(calendar.holiday(on: date("1973-04-30"))?.kind == .substitute)
    }

    @Test("1988-05-04 is the first citizens' holiday; 1986 and 1987 had none")
    func firstCitizensHoliday() {
        #expect(calendar.holiday(on: date("1986-05-04")) == nil)  // a Sunday
        #expect(calendar.holiday(on: date("1987-05-04"))?.kind == .substitute)  // 5/3 was a Sunday
        #expect(calendar.holiday(on: date("1988-05-04"))?.kind == .citizens)
        #expect(calendar.holiday(on: date("1988-05-04"))?.nameEn == "Citizens' Holiday")
    }

    @Test("silver weeks: citizens' holidays in September")
    func silverWeeks() {
        for text in ["2009-09-22", "2015-09-22", "2026-09-22", "2032-09-21"] {
            #expect(calendar.holiday(on: date(text))?.kind == .citizens, "\(text)")
        }
        #expect(calendar.holiday(on: date("2026-09-22"))?.provisional == false)
        #expect(calendar.holiday(on: date("2032-09-21"))?.provisional == true)
    }

    @Test("2019 Golden Week and the Olympic moves")
    func specialYears() {
        #expect(calendar.holiday(on: date("2019-04-30"))?.kind == .citizens)
        #expect(calendar.holiday(on: date("2019-05-02"))?.kind == .citizens)
        #expect(calendar.holiday(on: date("2019-05-01"))?.kind == .oneOff)
        #expect(calendar.holiday(on: date("2019-12-23")) == nil)
        #expect(calendar.holiday(on: date("2020-07-24"))?.nameJa == "スポーツの日")
        #expect(calendar.holiday(on: date("2020-10-12")) == nil)
        #expect(calendar.holiday(on: date("2021-08-09"))?.kind == .substitute)
        #expect(calendar.holiday(on: date("2021-08-11")) == nil)
        #expect(calendar.holiday(on: date("2016-08-11"))?.nameEn == "Mountain Day")
        #expect(calendar.holiday(on: date("2015-08-11")) == nil)
    }

    @Test(
        "one-off days by special law",
        arguments: [
            ("1959-04-10", "皇太子明仁親王の結婚の儀"), ("1989-02-24", "昭和天皇の大喪の礼"), ("1990-11-12", "即位礼正殿の儀"),
            ("1993-06-09", "皇太子徳仁親王の結婚の儀"), ("2019-05-01", "天皇の即位の日"), ("2019-10-22", "即位礼正殿の儀"),
        ])
    func oneOffs(day: String, name: String) {
        let holiday = calendar.holiday(on: date(day))
        #expect(holiday?.nameJa == name)
        #expect(holiday?.kind == .oneOff)
    }

    @Test("renamed and moved holidays over the years")
    func changes() {
        #expect(calendar.holiday(on: date("1988-04-29"))?.nameJa == "天皇誕生日")
        #expect(calendar.holiday(on: date("1989-04-29"))?.nameJa == "みどりの日")
        #expect(calendar.holiday(on: date("2006-04-29"))?.nameJa == "みどりの日")
        #expect(calendar.holiday(on: date("2007-04-29"))?.nameJa == "昭和の日")
        #expect(calendar.holiday(on: date("2018-12-23"))?.nameJa == "天皇誕生日")
        #expect(calendar.holiday(on: date("2020-02-23"))?.nameJa == "天皇誕生日")
        #expect(calendar.holiday(on: date("2019-10-14"))?.nameJa == "体育の日")
        #expect(calendar.holiday(on: date("2022-10-10"))?.nameJa == "スポーツの日")
        #expect(calendar.holiday(on: date("1999-01-15"))?.nameJa == "成人の日")
        #expect(calendar.holiday(on: date("2000-01-10"))?.nameJa == "成人の日")
        #expect(calendar.holiday(on: date("2002-09-15"))?.nameJa == "敬老の日")
        #expect(calendar.holiday(on: date("2003-09-15"))?.nameJa == "敬老の日")  // 3rd Monday
        #expect(calendar.holiday(on: date("1965-09-15")) == nil)
        #expect(calendar.holiday(on: date("1995-07-20")) == nil)
        #expect(calendar.holiday(on: date("1996-07-20"))?.nameJa == "海の日")
        #expect(calendar.holiday(on: date("1948-05-03")) == nil)  // before the Act
        #expect(calendar.holiday(on: date("1948-09-23"))?.nameJa == "秋分の日")
    }

    @Test("pre-holidays: New Year's Eve, Golden Week")
    func preHolidays() {
        #expect(calendar.isPreHoliday(date("2026-12-31")))
        #expect(calendar.isPreHoliday(date("2026-05-04")) && calendar.isHoliday(date("2026-05-04")))
        #expect(!calendar.isPreHoliday(date("2026-05-06")))
        #expect(calendar.isPreHoliday(date("2019-04-29")))
    }

    @Test("provisional after the last announced equinox year")
    func provisional() {
        #expect(calendar.holiday(on: date("2027-03-21"))?.provisional == false)
        #expect(calendar.holiday(on: date("2028-03-20"))?.provisional == true)
        #expect(calendar.holiday(on: date("2028-01-01"))?.provisional == false)
        let strict = JapaneseHolidayCalendar(lastOfficialEquinoxYear: 2025)
        #expect(strict.holiday(on: date("2026-09-23"))?.provisional == true)
        #expect(strict.holiday(on: date("2026-09-22"))?.provisional == true)
    }

    @Test("outside 1948...2150 there are no holidays")
    func range() {
        #expect(calendar.holiday(on: date("1947-01-01")) == nil)
        #expect(calendar.holiday(on: date("2151-01-01")) == nil)
        #expect(calendar.holiday(on: date("2150-01-01"))?.nameJa == "元日")
    }
}
