import OperatingHours
import Primitives

/// The language of a tool's text: the `language` argument, else the store's `language`
/// attribute, else Japanese.
enum ToolLanguage: String, Sendable {
    case ja
    case en

    /// The schema of the `language` argument.
    static let schema: JSONValue = [
        "type": "string", "enum": ["ja", "en"],
        "description": "The language of the text answer (ja or en); by default the store's, else Japanese.",
    ]

    /// The language asked for, else `store`'s, else Japanese.
    ///
    /// - Throws: ``MCPToolError`` for a language other than `ja` and `en`.
    static func of(_ arguments: MCPToolArguments, store: Store? = nil) throws(MCPToolError) -> ToolLanguage {
        if let text = try arguments.optionalString("language") {
            guard let language = ToolLanguage(rawValue: text.lowercased().prefix(2).description) else {
                throw .invalidArgument("`language` must be \"ja\" or \"en\", got \"\(text)\"")
            }
            return language
        }
        return store?.attributes["language"].flatMap { ToolLanguage(rawValue: $0) } ?? .ja
    }

    /// `ja` or `en`, whichever is this language.
    func pick(_ ja: String, _ en: String) -> String {
        self == .ja ? ja : en
    }

    /// A day type in words.
    func dayType(_ type: DayType) -> String {
        switch type {
        case .weekday: pick("平日", "weekday")
        case .weekend: pick("週末", "weekend")
        case .holiday: pick("祝日", "holiday")
        case .preHoliday: pick("祝前日", "eve of a holiday")
        case .closure: pick("休業日", "closure")
        case .override: pick("特別営業日", "special hours")
        }
    }

    /// A weekday in words.
    func weekday(_ date: CivilDate) -> String {
        let index = (date.dayNumber + 4) % 7  // 1970-01-01 was a Thursday
        let japanese = ["日", "月", "火", "水", "木", "金", "土"]
        let english = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let normalized = (index + 7) % 7
        return pick(japanese[normalized], english[normalized])
    }

    /// The name of a holiday.
    func holidayName(_ holiday: Holiday) -> String {
        pick(holiday.nameJa, holiday.nameEn)
    }
}
