import Primitives

/// The Act on National Holidays (国民の祝日に関する法律, in force since 1948-07-20) and the special
/// laws around it, as rules computing one year's holidays.
///
/// This is the slow, readable form; ``JapaneseHolidayCalendar`` runs it once per year at init and
/// keeps the result in a ``HolidayTable``.
public enum JapaneseHolidayRules {
    /// The day the Act came into force.
    public static let effectiveDate = CivilDate(year: 1948, month: 7, day: 20)!
    /// Substitute holidays exist for national holidays from this day on (1973 amendment).
    public static let substituteHolidaysSince = CivilDate(year: 1973, month: 4, day: 12)!
    /// From this day on a substitute holiday is the next day that is not a national holiday
    /// (2005 amendment); before, it was only the Monday after a Sunday holiday.
    public static let modernSubstituteRuleSince = CivilDate(year: 2007, month: 1, day: 1)!
    /// Citizens' holidays exist from this day on (1985 amendment).
    public static let citizensHolidaysSince = CivilDate(year: 1985, month: 12, day: 27)!

    /// Every holiday of `year` in date order; empty outside 1948...2150.
    ///
    /// - Parameters:
    ///   - year: The year.
    ///   - lastOfficialEquinoxYear: Equinox days of later years, and days derived from them, are
    ///     marked provisional.
    public static func holidays(year: Int, lastOfficialEquinoxYear: Int) -> [Holiday] {
        guard JapaneseHolidayCalendar.supportedYears.contains(year) else { return [] }
        let national = nationalHolidays(year: year, lastOfficialEquinoxYear: lastOfficialEquinoxYear)
            .filter { $0.date >= effectiveDate }
        var byDay: [Int: Holiday] = [:]
        for holiday in national { byDay[holiday.date.dayNumber] = holiday }
        for holiday in substitutes(for: national, nationalDays: byDay) { byDay[holiday.date.dayNumber] = holiday }
        for holiday in citizensHolidays(year: year, nationalDays: byDay) { byDay[holiday.date.dayNumber] = holiday }
        return byDay.values.sorted { $0.date < $1.date }
    }

    // MARK: National holidays

    private static func nationalHolidays(year y: Int, lastOfficialEquinoxYear: Int) -> [Holiday] {
        var list: [Holiday] = []
        func add(
            _ month: Int, _ day: Int, _ ja: String, _ en: String, _ kind: HolidayKind = .national,
            provisional: Bool = false
        ) {
            guard let date = CivilDate(year: y, month: month, day: day) else { return }
            list.append(Holiday(date: date, nameJa: ja, nameEn: en, kind: kind, provisional: provisional))
        }
        func monday(_ month: Int, _ nth: Int) -> Int {
            let first = CivilDate.dayNumber(year: y, month: month, day: 1)
            let firstMonday = 1 + (Weekday.monday.rawValue - Weekday(dayNumber: first).rawValue + 7) % 7
            return firstMonday + 7 * (nth - 1)
        }

        add(1, 1, "元日", "New Year's Day")
        if y >= 2000 {
            add(1, monday(1, 2), "成人の日", "Coming of Age Day")
        } else {
            add(1, 15, "成人の日", "Coming of Age Day")
        }
        if y >= 1967 { add(2, 11, "建国記念の日", "National Foundation Day") }
        if y >= 2020 { add(2, 23, "天皇誕生日", "The Emperor's Birthday") }
        if let day = EquinoxDay.vernal(year: y) {
            add(3, day, "春分の日", "Vernal Equinox Day", provisional: y > lastOfficialEquinoxYear)
        }
        switch y {
        case ..<1989: add(4, 29, "天皇誕生日", "The Emperor's Birthday")
        case 1989...2006: add(4, 29, "みどりの日", "Greenery Day")
        default: add(4, 29, "昭和の日", "Showa Day")
        }
        add(5, 3, "憲法記念日", "Constitution Memorial Day")
        if y >= 2007 { add(5, 4, "みどりの日", "Greenery Day") }
        add(5, 5, "こどもの日", "Children's Day")
        switch y {
        case 1996...2002: add(7, 20, "海の日", "Marine Day")
        case 2020: add(7, 23, "海の日", "Marine Day")
        case 2021: add(7, 22, "海の日", "Marine Day")
        case 2003...: add(7, monday(7, 3), "海の日", "Marine Day")
        default: break
        }
        switch y {
        case 2020: add(8, 10, "山の日", "Mountain Day")
        case 2021: add(8, 8, "山の日", "Mountain Day")
        case 2016...: add(8, 11, "山の日", "Mountain Day")
        default: break
        }
        switch y {
        case 1966...2002: add(9, 15, "敬老の日", "Respect for the Aged Day")
        case 2003...: add(9, monday(9, 3), "敬老の日", "Respect for the Aged Day")
        default: break
        }
        if let day = EquinoxDay.autumnal(year: y) {
            add(9, day, "秋分の日", "Autumnal Equinox Day", provisional: y > lastOfficialEquinoxYear)
        }
        switch y {
        case 1966...1999: add(10, 10, "体育の日", "Health and Sports Day")
        case 2000...2019: add(10, monday(10, 2), "体育の日", "Health and Sports Day")
        case 2020: add(7, 24, "スポーツの日", "Sports Day")
        case 2021: add(7, 23, "スポーツの日", "Sports Day")
        case 2022...: add(10, monday(10, 2), "スポーツの日", "Sports Day")
        default: break
        }
        add(11, 3, "文化の日", "Culture Day")
        add(11, 23, "勤労感謝の日", "Labor Thanksgiving Day")
        if (1989...2018).contains(y) { add(12, 23, "天皇誕生日", "The Emperor's Birthday") }

        for oneOff in oneOffHolidays where oneOff.date.year == y { list.append(oneOff) }
        return list
    }

    /// Holidays set by special laws for one day only.
    public static let oneOffHolidays: [Holiday] = [
        Holiday(
            date: CivilDate(year: 1959, month: 4, day: 10)!, nameJa: "皇太子明仁親王の結婚の儀",
            nameEn: "Wedding of Crown Prince Akihito", kind: .oneOff),
        Holiday(
            date: CivilDate(year: 1989, month: 2, day: 24)!, nameJa: "昭和天皇の大喪の礼",
            nameEn: "State Funeral of Emperor Showa", kind: .oneOff),
        Holiday(
            date: CivilDate(year: 1990, month: 11, day: 12)!, nameJa: "即位礼正殿の儀",
            nameEn: "Enthronement Ceremony", kind: .oneOff),
        Holiday(
            date: CivilDate(year: 1993, month: 6, day: 9)!, nameJa: "皇太子徳仁親王の結婚の儀",
            nameEn: "Wedding of Crown Prince Naruhito", kind: .oneOff),
        Holiday(
            date: CivilDate(year: 2019, month: 5, day: 1)!, nameJa: "天皇の即位の日",
            nameEn: "Enthronement Day", kind: .oneOff),
        Holiday(
            date: CivilDate(year: 2019, month: 10, day: 22)!, nameJa: "即位礼正殿の儀",
            nameEn: "Enthronement Ceremony", kind: .oneOff),
    ]

    // MARK: Derived holidays

    /// 1973-04-12...2006: the Monday after a Sunday national holiday. From 2007: the first
    /// following day that is not a national holiday.
    private static func substitutes(for national: [Holiday], nationalDays: [Int: Holiday]) -> [Holiday] {
        var result: [Holiday] = []
        for holiday in national
        where holiday.date >= substituteHolidaysSince && holiday.date.weekday == .sunday {
            var day = holiday.date.dayNumber + 1
            if holiday.date >= modernSubstituteRuleSince {
                while nationalDays[day] != nil { day += 1 }
            } else if nationalDays[day] != nil {
                continue
            }
            result.append(
                Holiday(
                    date: CivilDate(dayNumber: day), nameJa: "振替休日", nameEn: "Substitute Holiday",
                    kind: .substitute, provisional: holiday.provisional))
        }
        return result
    }

    /// From 1985-12-27: a day that is not a Sunday and not already a holiday, whose previous and
    /// next days are both national holidays.
    private static func citizensHolidays(year: Int, nationalDays: [Int: Holiday]) -> [Holiday] {
        var result: [Holiday] = []
        for (day, _) in nationalDays {
            let candidate = day + 1
            guard let before = nationalDays[day], before.kind == .national || before.kind == .oneOff,
                nationalDays[candidate] == nil,
                let after = nationalDays[candidate + 1], after.kind == .national || after.kind == .oneOff
            else { continue }
            let date = CivilDate(dayNumber: candidate)
            guard date >= citizensHolidaysSince, date.year == year, date.weekday != .sunday else { continue }
            result.append(
                Holiday(
                    date: date, nameJa: "国民の休日", nameEn: "Citizens' Holiday", kind: .citizens,
                    provisional: before.provisional || after.provisional))
        }
        return result
    }
}
