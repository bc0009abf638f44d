/// Why `flows/` could not be loaded: every problem found, in file and line order.
public struct FlowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, sorted by location.
    public let problems: [FlowProblem]

    /// Creates an error from problems (sorted by location).
    public init(problems: [FlowProblem]) {
        self.problems = problems.sorted { $0.location < $1.location }
    }

    /// One problem a line.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
