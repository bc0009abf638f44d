/// One versioned step of the schema.
///
/// Statements are listed one by one (PostgreSQL's extended protocol runs one statement per query),
/// so no SQL splitter is needed and `$$` function bodies stay intact.
public struct Migration: Sendable, Hashable {
    /// The version; migrations apply in increasing order, each exactly once.
    public var version: Int
    /// A short name, recorded with the version.
    public var name: String
    /// The SQL statements, run in order in one transaction.
    public var statements: [String]

    /// Creates a migration.
    public init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
