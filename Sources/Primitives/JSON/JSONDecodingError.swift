/// A JSON message that could not be decoded into its model or failed validation: what the
/// decoders built on ``JSONDocument`` and ``JSONObjectReader`` throw.
///
/// The ingest dead-letters the message with ``description`` as the reason, so the text names
/// the field and says what was expected: `ContactTraceRecord at Agent.ConnectedToAgentTimestamp:
/// expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z", got "yesterday"`.
public struct JSONDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model being decoded, e.g. `ContactTraceRecord`, `AgentEvent`, `ContactEvent`.
    public var message: String
    /// The field path in the JSON, dot separated with array indices, e.g.
    /// `Agent.ConnectedToAgentTimestamp`, `CurrentAgentSnapshot.Contacts[0].State`,
    /// `detail.queueInfo.enqueueTimestamp`. `$` means the document itself (malformed JSON).
    public var path: String
    /// What was wrong and what was expected.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - message: The model being decoded.
    ///   - path: The field path (see ``path``).
    ///   - reason: What was wrong and what was expected.
    public init(message: String = "JSON", path: String, reason: String) {
        self.message = message
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(message) at \(path): \(reason)" }

    /// The same error attributed to `message`.
    package func attributed(to message: String) -> JSONDecodingError {
        var copy = self
        copy.message = message
        return copy
    }
}
