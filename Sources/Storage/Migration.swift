import Crypto
import Primitives

/// One versioned step of the schema.
///
/// Statements are listed one by one and each runs as its own query (PostgreSQL's extended
/// protocol runs one statement per query), in one transaction, so `$$` function bodies stay
/// intact. The migration's file holds them as ``script``; its ``checksum`` is recorded when it is
/// applied, and a migrator refuses a database whose recorded checksum differs.
public struct Migration: Sendable, Hashable {
    /// The version; migrations apply in increasing order, each exactly once.
    public var version: Int
    /// A short name, recorded with the version.
    public var name: String
    /// The SQL statements, run in order in one transaction.
    public var statements: [String]
    /// Whether it runs after the schema's functions and views are applied rather than before: a
    /// data migration that needs their current text (a rebuild after a definition changed). Its
    /// file's header says so with the line ``MigrationFile/afterSchemaFilesLine``; the header is
    /// not part of the checksum.
    public var runsAfterSchemaFiles = false

    /// Creates a migration.
    public init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }

    /// The statements as a migration file holds them after its header: each followed by `;` and a
    /// line break, separated by an empty line.
    public var script: String {
        statements.map { $0 + ";\n" }.joined(separator: "\n")
    }

    /// The SHA-256 of ``script`` (its UTF-8 bytes) in lower-case hexadecimal, as
    /// `schema_migration.checksum` records it.
    public var checksum: String {
        Hexadecimal.encode(Array(SHA256.hash(data: Array(script.utf8))))
    }
}
