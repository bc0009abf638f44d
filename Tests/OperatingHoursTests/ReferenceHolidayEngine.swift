import Foundation

/// An independent, brute-force reading of the Act on National Holidays, used only to check
/// `JapaneseHolidayRules`: it walks every day with Foundation's Gregorian calendar and asks
/// "is this day a holiday, and why?" with the simplest rule for each clause, floating-point
/// equinox formulas included. It shares no code with the implementation.
enum ReferenceHolidayEngine {
    struct Entry: Equatable, CustomStringConvertible {
        let date: String
        let name: String
        let kind: String
        var description: String { "\(date) \(name) \(kind)" }
    }

    static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func holidays(year: Int) -> [Entry] {
        var result: [Entry] = []
        var date = gregorian.date(from: DateComponents(year: year, month: 1, day: 1))!
        while gregorian.component(.year, from: date) == year {
            if let (name, kind) = classify(date) {
                let c = gregorian.dateComponents([.year, .month, .day], from: date)
                result.append(
                    Entry(date: String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!), name: name, kind: kind))
            }
            date = gregorian.date(byAdding: .day, value: 1, to: date)!
        }
        return result
    }

    private static func parts(_ date: Date) -> (y: Int, m: Int, d: Int, weekday: Int) {
        let c = gregorian.dateComponents([.year, .month, .day, .weekday], from: date)
        return (c.year!, c.month!, c.day!, c.weekday!)  // weekday: 1 = Sunday, 2 = Monday
    }

    private static func shift(_ date: Date, _ days: Int) -> Date {
        gregorian.date(byAdding: .day, value: days, to: date)!
    }

    private static func classify(_ date: Date) -> (String, String)? {
        if let name = national(date) { return (name, oneOffs[key(date)] != nil ? "one_off" : "national") }
        let p = parts(date)
        let ymd = p.y * 10000 + p.m * 100 + p.d
        // Substitute holidays.
        if ymd >= 19_730_412 {
            if ymd < 20_070_101 {
                let before = shift(date, -1)
                if parts(before).weekday == 1, national(before) != nil, key(before) >= 19_730_412 {
                    return ("振替休日", "substitute")
                }
            } else {
                var back = shift(date, -1)
                while national(back) != nil {
                    if parts(back).weekday == 1 && key(back) >= 20_070_101 { return ("振替休日", "substitute") }
                    back = shift(back, -1)
                }
            }
        }
        // Citizens' holidays.
        if ymd >= 19_851_227, p.weekday != 1, national(shift(date, -1)) != nil, national(shift(date, 1)) != nil {
            return ("国民の休日", "citizens")
        }
        return nil
    }

    private static func key(_ date: Date) -> Int {
        let p = parts(date)
        return p.y * 10000 + p.m * 100 + p.d
    }

    static let oneOffs: [Int: String] = [
        19_590_410: "皇太子明仁親王の結婚の儀", 19_890_224: "昭和天皇の大喪の礼", 19_901_112: "即位礼正殿の儀",
        19_930_609: "皇太子徳仁親王の結婚の儀", 20_190_501: "天皇の即位の日", 20_191_022: "即位礼正殿の儀",
    ]

    static func vernal(_ y: Int) -> Int {
        let c = y < 1980 ? 20.8357 : (y < 2100 ? 20.8431 : 21.8510)
        let leap = y < 1980 ? Double(Int((Double(y) - 1983) / 4)) : (Double(y) - 1980) / 4
        return Int((c + 0.242194 * Double(y - 1980) - leap.rounded(.towardZero)).rounded(.down))
    }

    static func autumnal(_ y: Int) -> Int {
        let c = y < 1980 ? 23.2588 : (y < 2100 ? 23.2488 : 24.2488)
        let leap = y < 1980 ? Double(Int((Double(y) - 1983) / 4)) : (Double(y) - 1980) / 4
        return Int((c + 0.242194 * Double(y - 1980) - leap.rounded(.towardZero)).rounded(.down))
    }

    /// The national holiday (祝日) name of a day, or nil.
    private static func national(_ date: Date) -> String? {
        let p = parts(date)
        let (y, m, d) = (p.y, p.m, p.d)
        let ymd = y * 10000 + m * 100 + d
        if ymd < 19_480_720 { return nil }
        if let name = oneOffs[ymd] { return name }
        let monday = p.weekday == 2
        let week = (d - 1) / 7 + 1
        switch (m, d) {
        case (1, 1): return "元日"
        case (1, 15) where y < 2000: return "成人の日"
        case (1, _) where y >= 2000 && monday && week == 2: return "成人の日"
        case (2, 11) where y >= 1967: return "建国記念の日"
        case (2, 23) where y >= 2020: return "天皇誕生日"
        case (3, _) where d == vernal(y): return "春分の日"
        case (4, 29): return y < 1989 ? "天皇誕生日" : (y < 2007 ? "みどりの日" : "昭和の日")
        case (5, 3): return "憲法記念日"
        case (5, 4) where y >= 2007: return "みどりの日"
        case (5, 5): return "こどもの日"
        case (7, 20) where y >= 1996 && y < 2003: return "海の日"
        case (7, 23) where y == 2020: return "海の日"
        case (7, 22) where y == 2021: return "海の日"
        case (7, _) where y >= 2003 && y != 2020 && y != 2021 && monday && week == 3: return "海の日"
        case (7, 24) where y == 2020: return "スポーツの日"
        case (7, 23) where y == 2021: return "スポーツの日"
        case (8, 10) where y == 2020: return "山の日"
        case (8, 8) where y == 2021: return "山の日"
        case (8, 11) where y >= 2016 && y != 2020 && y != 2021: return "山の日"
        case (9, 15) where y >= 1966 && y < 2003: return "敬老の日"
        case (9, _) where y >= 2003 && monday && week == 3: return "敬老の日"
        case (9, _) where d == autumnal(y): return "秋分の日"
        case (10, 10) where y >= 1966 && y < 2000: return "体育の日"
        case (10, _) where y >= 2000 && y < 2020 && monday && week == 2: return "体育の日"
        case (10, _) where y >= 2022 && monday && week == 2: return "スポーツの日"
        case (11, 3): return "文化の日"
        case (11, 23): return "勤労感謝の日"
        case (12, 23) where y >= 1989 && y <= 2018: return "天皇誕生日"
        default: return nil
        }
    }
}
