import Primitives

extension JSONObjectReader {
    /// The member name to read when the same field has several documented spellings, such as
    /// `contactId` and `ContactId` in contact events: the first candidate whose value is present
    /// and not `null`, else the first candidate.
    ///
    /// Reading the chosen spelling with the usual accessors keeps their type checks, and their
    /// errors name the spelling the message actually used.
    func spelling(_ first: StaticString, _ second: StaticString) -> StaticString {
        if hasValue(first) { return first }
        if hasValue(second) { return second }
        return first
    }

    /// ``spelling(_:_:)`` with three candidates.
    func spelling(_ first: StaticString, _ second: StaticString, _ third: StaticString) -> StaticString {
        if hasValue(first) { return first }
        if hasValue(second) { return second }
        if hasValue(third) { return third }
        return first
    }

    /// ``spelling(_:_:)`` with four candidates.
    func spelling(
        _ first: StaticString, _ second: StaticString, _ third: StaticString, _ fourth: StaticString
    ) -> StaticString {
        if hasValue(first) { return first }
        if hasValue(second) { return second }
        if hasValue(third) { return third }
        if hasValue(fourth) { return fourth }
        return first
    }

    /// Whether `key` is a member whose value is not `null`.
    func hasValue(_ key: StaticString) -> Bool {
        guard let valueIndex = lookup(key) else { return false }
        return document.node(valueIndex).kind != .null
    }

    /// ``requiredString(_:)`` for a field with two spellings, `key` chosen by
    /// ``spelling(_:_:)``: when neither is there, the error names both.
    func requiredString(_ key: StaticString, or alternative: StaticString) throws -> String {
        guard hasValue(key) else {
            throw JSONDecodingError(
                path: path(of: key), reason: "is required but is missing or null (and so is \(alternative))")
        }
        return try requiredString(key)
    }
}
