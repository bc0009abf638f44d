/// Text that is not an ISO 8601 instant, e.g. the `at` parameter of a hook or CLI call.
public enum InstantParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text does not follow `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`.
    case malformed(String, expected: String)
    /// The text has no `Z` or offset, so the instant is ambiguous.
    case missingOffset(String)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case .malformed(let text, let expected):
            "\"\(text)\" is not an ISO 8601 instant (expected \(expected)); fix: write e.g. 2026-12-31T22:30:00+09:00 or 2026-12-31T13:30:00Z"
        case .missingOffset(let text):
            "\"\(text)\" has no time zone; fix: end it with Z or an offset such as +09:00"
        }
    }
}
