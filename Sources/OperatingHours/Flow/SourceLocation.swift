/// A place in a `flows/` file, for error messages.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file name as given to the loader, e.g. `stores.yaml`.
    public let file: String
    /// The line, from 1 (0 when unknown).
    public let line: Int
    /// The column, from 1 (0 when unknown).
    public let column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
