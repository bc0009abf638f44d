/// A malformed piece of an hours definition; the flows loader adds the file and line.
public enum HoursFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A time that is not `HH:MM` within range, e.g. `25:61`.
    case badTime(String)
    /// A span that is not `HH:MM-HH:MM`.
    case badSpan(String)
    /// A span whose end equals its start.
    case emptySpan(String)
    /// A span longer than 24 hours.
    case spanTooLong(String)
    /// Two spans of the same day (or an overnight span and the next day's span) overlap.
    case overlappingSpans(OpeningSpan, OpeningSpan)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case .badTime(let text):
            "bad time \"\(text)\"; fix: write HH:MM with minutes 00-59, a start before 24:00 and an end up to 48:00"
        case .badSpan(let text):
            "bad span \"\(text)\"; fix: write HH:MM-HH:MM, e.g. 11:30-14:00 or 17:00-26:00"
        case .emptySpan(let text):
            "empty span \"\(text)\"; fix: the end must differ from the start (use 00:00-24:00 for a whole day)"
        case .spanTooLong(let text):
            "span \"\(text)\" is longer than 24 hours; fix: split it over two days"
        case .overlappingSpans(let first, let second):
            "spans \(first) and \(second) overlap; fix: merge them into one span or make them disjoint"
        }
    }
}
