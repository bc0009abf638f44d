/// Text renderings of a year's holidays for `switchboard calendar 2026`.
public enum HolidayListing {
    /// The CSV header line.
    public static let csvHeader = "date,name_ja,name_en,kind"

    /// CSV lines (header first): `date,name_ja,name_en,kind`, fields quoted when they need it.
    public static func csvLines(_ holidays: [Holiday]) -> [String] {
        [csvHeader]
            + holidays.map { holiday in
                [holiday.date.description, holiday.nameJa, holiday.nameEn, holiday.kind.rawValue]
                    .map(csvField)
                    .joined(separator: ",")
            }
    }

    /// The CSV document: ``csvLines(_:)`` joined with newlines, with a final newline.
    public static func csv(_ holidays: [Holiday]) -> String {
        csvLines(holidays).joined(separator: "\n") + "\n"
    }

    /// A readable table, one holiday a line: date, weekday, kind, Japanese and English names;
    /// provisional days are marked `*` with a footnote.
    public static func table(_ holidays: [Holiday]) -> String {
        var lines: [String] = []
        for holiday in holidays {
            let weekday = String(holiday.date.weekday.description.prefix(3))
            let mark = holiday.provisional ? "*" : " "
            let kind = holiday.kind.rawValue + String(repeating: " ", count: max(0, 10 - holiday.kind.rawValue.count))
            lines.append("\(holiday.date) \(weekday)\(mark) \(kind) \(holiday.nameJa) (\(holiday.nameEn))")
        }
        if holidays.contains(where: \.provisional) {
            lines.append("* provisional: equinox dates not yet officially announced")
        }
        lines.append("\(holidays.count) holidays")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
