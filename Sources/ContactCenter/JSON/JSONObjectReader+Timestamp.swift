import Primitives

extension JSONObjectReader {
    /// A timestamp member: `nil` when absent or `null`.
    func timestamp(_ key: StaticString) throws -> UTCTimestamp? {
        guard let valueIndex = present(key) else { return nil }
        guard document.node(valueIndex).kind == .string else {
            throw typeMismatch(
                key, valueIndex, expected: "an ISO 8601 UTC timestamp string such as \"2026-11-20T09:15:02Z\"")
        }
        let parsed: UTCTimestamp?
        if document.node(valueIndex).flag {
            parsed = UTCTimestamp(iso8601: document.string(at: valueIndex))
        } else {
            parsed = document.withStringBytes(valueIndex) { UTCTimestamp.parse($0) }
        }
        guard let parsed else {
            throw JSONDecodingError(
                path: path(of: key),
                reason: "expected an ISO 8601 UTC timestamp such as \"2026-11-20T09:15:02Z\" or "
                    + "\"2026-11-20T09:15:02.123Z\", got \(document.rawText(at: valueIndex))")
        }
        return parsed
    }

    /// A timestamp member that must be present and not `null`.
    func requiredTimestamp(_ key: StaticString) throws -> UTCTimestamp {
        guard let value = try timestamp(key) else {
            throw JSONDecodingError(path: path(of: key), reason: "is required but is missing or null")
        }
        return value
    }
}
