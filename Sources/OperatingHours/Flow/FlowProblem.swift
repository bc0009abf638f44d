/// One problem found while loading `flows/`, with where it is.
public struct FlowProblem: Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public let location: SourceLocation
    /// What the problem is.
    public let issue: FlowIssue

    /// Creates a problem.
    public init(location: SourceLocation, issue: FlowIssue) {
        self.location = location
        self.issue = issue
    }

    /// `file:line:column: message; fix: ...`.
    public var description: String {
        "\(location): \(issue.message); fix: \(issue.fix)"
    }
}
