/// A test of one attribute: equal to a value, or one of several.
public struct AttributeTest: Hashable, Sendable {
    /// The attribute's key.
    public let key: String
    /// The accepted values; the attribute must be present and equal one of them.
    public let values: [String]

    /// Creates a test.
    public init(key: String, values: [String]) {
        self.key = key
        self.values = values
    }

    /// Whether attributes pass the test.
    @inline(__always)
    public func matches(_ attributes: [String: String]) -> Bool {
        guard let value = attributes[key] else { return false }
        return values.contains(value)
    }
}
