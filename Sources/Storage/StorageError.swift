import PostgresNIO

/// An error of the storage adapter.
///
/// Like `PSQLError` (and the Kafka binding's `KafkaError`), a struct with an extensible ``Code``
/// rather than an enum, so new kinds of failure do not break clients that switch over it.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Hashable, Sendable {
            case configuration
            case migration
            case migrationChanged
            case schemaBehind
            case fenced
            case timeout
            case notFound
            case alreadyWritten
            case connectionClosed
            case connection
            case server
        }

        fileprivate let base: Base

        /// The configuration (URL, settings) is invalid.
        public static let configuration = Code(base: .configuration)
        /// A migration failed; the database is left at the previous version.
        public static let migration = Code(base: .migration)
        /// An applied migration's recorded checksum differs from the binary's: its text changed
        /// after it was applied. Nothing is migrated; retrying cannot help.
        public static let migrationChanged = Code(base: .migrationChanged)
        /// The database lacks a migration this binary needs, and this role does not migrate: the
        /// schema's owner runs `switchboard migrate` first. Retrying cannot help.
        public static let schemaBehind = Code(base: .schemaBehind)
        /// Another worker now owns the partition: the transaction was rolled back.
        public static let fenced = Code(base: .fenced)
        /// An operation did not finish within its deadline.
        public static let timeout = Code(base: .timeout)
        /// The requested row does not exist.
        public static let notFound = Code(base: .notFound)
        /// A batch's offsets are stored already: an earlier attempt committed it.
        public static let alreadyWritten = Code(base: .alreadyWritten)
        /// The connection closed before a statement could be sent.
        public static let connectionClosed = Code(base: .connectionClosed)
        /// The server could not be reached or refused the connection (TLS, authentication).
        public static let connection = Code(base: .connection)
        /// The server answered a statement with an error (a missing privilege, a constraint).
        public static let server = Code(base: .server)

        public var description: String {
            switch base {
            case .configuration: "configuration"
            case .migration: "migration"
            case .migrationChanged: "migrationChanged"
            case .schemaBehind: "schemaBehind"
            case .fenced: "fenced"
            case .timeout: "timeout"
            case .notFound: "notFound"
            case .alreadyWritten: "alreadyWritten"
            case .connectionClosed: "connectionClosed"
            case .connection: "connection"
            case .server: "server"
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened, for people.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "StorageError.\(code): \(message)" }
}

extension StorageError {
    /// A one-line description of `error` for people: postgres-nio's errors describe themselves
    /// only generically, and in full with the statement and its binds (which may hold data). This
    /// keeps the SQLSTATE and the server's message, never the statement.
    public static func summary(of error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        var parts = ["PSQLError.\(error.code)"]
        if let state = error.serverInfo?[.sqlState], let message = error.serverInfo?[.message] {
            parts.append("\(state) \(message)")
        }
        if let underlying = error.underlying { parts.append(String(describing: underlying)) }
        return parts.joined(separator: ": ")
    }

    /// `error` as a ``Code/server`` error when the server answered it, else `error` itself.
    public static func fromServer(_ error: any Error) -> any Error {
        guard let psql = error as? PSQLError, psql.serverInfo?[.sqlState] != nil else { return error }
        return StorageError(code: .server, message: summary(of: psql))
    }
}
