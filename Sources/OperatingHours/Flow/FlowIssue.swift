import Primitives

/// What is wrong with a piece of `flows/`; each case knows its message and its fix.
public enum FlowIssue: Error, Hashable, Sendable {
    /// The text is not valid YAML.
    case invalidYAML(String)
    /// A value has the wrong shape, e.g. a list where a mapping belongs.
    case wrongType(key: String, expected: String)
    /// A required key is absent.
    case missingKey(String, in: String)
    /// A key that the format does not know (often a typo).
    case unknownKey(String, allowed: [String])
    /// A value outside its allowed set.
    case invalidValue(key: String, value: String, expected: String)
    /// A malformed span or time, or overlapping spans.
    case badHours(HoursFormatError)
    /// A weekday key that is not `mon`..`sun`, `daily`, `weekdays`, `weekends` or a range.
    case unknownWeekday(String)
    /// A weekday given hours twice in one `weekly` mapping.
    case weekdayTwice(Weekday)
    /// A date that is not `YYYY-MM-DD` (or `MM-DD` for annual closures).
    case badDate(String)
    /// A time zone that is not a known IANA identifier.
    case unknownTimeZone(String)
    /// A reference to a profile that no file declares.
    case unknownHoursProfile(String)
    /// A reference to a calendar that no file declares.
    case unknownCalendar(String)
    /// A reference to a store that no file declares.
    case unknownStore(String)
    /// A dialed number that is not E.164.
    case badDialedNumber(String)
    /// An id declared twice.
    case duplicateId(kind: String, id: String, first: SourceLocation)
    /// A dialed number given to two stores.
    case duplicateDialedNumber(String, firstStore: String, first: SourceLocation)
    /// A `{{variable}}` that no answer has.
    case unknownTemplateVariable(String)
    /// An output that would overwrite a key the hook always answers.
    case reservedOutputKey(String)

    /// What is wrong.
    public var message: String {
        switch self {
        case .invalidYAML(let problem): "invalid YAML: \(problem)"
        case .wrongType(let key, let expected): "`\(key)` must be \(expected)"
        case .missingKey(let key, let context): "\(context) has no `\(key)`"
        case .unknownKey(let key, _): "unknown key `\(key)`"
        case .invalidValue(let key, let value, let expected): "`\(key)` is \"\(value)\", expected \(expected)"
        case .badHours(let error): FlowIssue.split(error.description).message
        case .unknownWeekday(let text): "unknown weekday \"\(text)\""
        case .weekdayTwice(let weekday): "\(weekday) has hours twice"
        case .badDate(let text): "bad date \"\(text)\""
        case .unknownTimeZone(let text): "unknown time zone \"\(text)\""
        case .unknownHoursProfile(let id): "unknown hours profile \"\(id)\""
        case .unknownCalendar(let id): "unknown calendar \"\(id)\""
        case .unknownStore(let id): "unknown store \"\(id)\""
        case .badDialedNumber(let text): "dialed number \"\(text)\" is not E.164"
        case .duplicateId(let kind, let id, _): "duplicate \(kind) id \"\(id)\""
        case .duplicateDialedNumber(let number, let store, _):
            "dialed number \(number) already belongs to store \"\(store)\""
        case .unknownTemplateVariable(let name): "unknown template variable {{\(name)}}"
        case .reservedOutputKey(let key): "output `\(key)` would overwrite an answer key the hook always sets"
        }
    }

    /// How to fix it.
    public var fix: String {
        switch self {
        case .invalidYAML: "correct the YAML syntax at that position (indentation, quotes, colons)"
        case .wrongType(let key, let expected): "write `\(key)` as \(expected)"
        case .missingKey(let key, _): "add `\(key):`"
        case .unknownKey(_, let allowed): "use one of: \(allowed.joined(separator: ", "))"
        case .invalidValue(_, _, let expected): "write \(expected)"
        case .badHours(let error):
            FlowIssue.split(error.description).fix ?? "write hours as `closed`, `HH:MM-HH:MM` or a list of them"
        case .unknownWeekday:
            "use mon, tue, wed, thu, fri, sat, sun, a range (mon-fri), a list (sat,sun), daily, weekdays or weekends"
        case .weekdayTwice: "give each weekday hours once"
        case .badDate: "write YYYY-MM-DD (or MM-DD for a closure that repeats every year)"
        case .unknownTimeZone: "use an IANA identifier such as Asia/Tokyo or America/New_York"
        case .unknownHoursProfile(let id): "declare a profile with `id: \(id)` under `profiles:` or fix the reference"
        case .unknownCalendar(let id): "declare a calendar with `id: \(id)` under `calendars:` or use `japan`"
        case .unknownStore(let id): "declare a store with `id: \(id)` under `stores:` or fix the reference"
        case .badDialedNumber: "write + then the country code and number, digits only, e.g. +81312345678"
        case .duplicateId(_, _, let first): "rename one of them; the first is at \(first)"
        case .duplicateDialedNumber(_, _, let first): "give each number to one store only; the first is at \(first)"
        case .unknownTemplateVariable:
            "use an answer key (\(HookAnswer.templateVariables.joined(separator: ", "))), store.ATTRIBUTE or contact.ATTRIBUTE"
        case .reservedOutputKey: "rename the output; reserved: \(HookAnswer.reservedKeys.joined(separator: ", "))"
        }
    }

    /// Splits `"what; fix: how"` (the shape of ``HoursFormatError``'s descriptions) so that a
    /// problem prints one `fix:`.
    private static func split(_ text: String) -> (message: String, fix: String?) {
        guard let range = text.firstRange(of: "; fix: ") else { return (text, nil) }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }
}
