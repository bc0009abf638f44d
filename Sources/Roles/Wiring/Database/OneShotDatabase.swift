import Logging
import PostgresNIO
import Storage

/// A connected database for one-shot commands (`migrate`, `import`, `dlq`, `rollup`, `staffing`,
/// `retention`).
///
/// Only `migrate` changes the schema: every other command checks that it is current
/// (``Migrator/verify(_:)``) and refuses to run when it is not, so it needs no more than its
/// role's privileges.
public enum OneShotDatabase {
    /// Runs `body` with a running client to `settings`' database once the schema is checked
    /// current and the analysts' data written (the writer's commands).
    ///
    /// - Parameter analysts: What is written for the analysts; by default from `settings`
    ///   (reading `flows/`).
    /// - Throws: ``StorageError`` `.schemaBehind` when a migration is missing, or what
    ///   connecting, writing or `body` throws.
    public static func run<T: Sendable>(
        _ settings: Settings, analysts: AnalystSetup? = nil,
        _ body: @Sendable (PostgresClient, Logger) async throws -> T
    ) async throws -> T {
        try await connected(settings) { client, logger in
            try await Migrator(client: client, logger: logger).verifySwitchboardSchema()
            let analysts = analysts ?? AnalystSetup(settings: settings, logger: logger)
            try await analysts.apply(client: client, logger: logger)
            return try await body(client, logger)
        }
    }

    /// Runs `body` with a running client once the schema is checked current, writing nothing
    /// else: for a role that may not write the analysts' data (`retention`).
    ///
    /// - Throws: ``StorageError`` `.schemaBehind` when a migration is missing, or what connecting
    ///   or `body` throws.
    public static func verified<T: Sendable>(
        _ settings: Settings, _ body: @Sendable (PostgresClient, Logger) async throws -> T
    ) async throws -> T {
        try await connected(settings) { client, logger in
            try await Migrator(client: client, logger: logger).verifySwitchboardSchema()
            return try await body(client, logger)
        }
    }

    /// Runs `body` with a running client once the schema is checked current, while the analysts' setup
    /// (``AnalystSetup``, from `settings`) runs beside it: for a command that reads what the setup
    /// writes and can read again when it must. `body` awaits the setup's task (`true`: it rewrote
    /// the calendar or the business days); this waits for it in any case.
    ///
    /// - Throws: ``StorageError`` `.schemaBehind` when a migration is missing, or what connecting,
    ///   the setup or `body` throws.
    public static func run<T: Sendable>(
        _ settings: Settings,
        besideAnalysts body: @Sendable (PostgresClient, Logger, _ setup: Task<Bool, any Error>) async throws -> T
    ) async throws -> T {
        try await connected(settings) { client, logger in
            try await Migrator(client: client, logger: logger).verifySwitchboardSchema()
            let analysts = AnalystSetup(settings: settings, logger: logger)
            let setup = Task { try await analysts.apply(client: client, logger: logger) }
            let result: T
            do {
                result = try await body(client, logger, setup)
            } catch {
                _ = try? await setup.value
                throw error
            }
            _ = try await setup.value
            return result
        }
    }

    /// Runs `body` with a running client to `settings`' database (no migrations).
    ///
    /// - Throws: What connecting or `body` throws.
    public static func connected<T: Sendable>(
        _ settings: Settings, _ body: @Sendable (PostgresClient, Logger) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "switchboard")
        let database = try settings.databaseConfiguration()
        try await probe(database, logger: logger)
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            await client.start(in: &group)
            defer { group.cancelAll() }
            do {
                return try await body(client, logger)
            } catch {
                // The server's reason ("permission denied for function …"), not postgres-nio's
                // generic description.
                throw StorageError.fromServer(error)
            }
        }
    }

    /// Opens and closes one connection to `database`, so that a one-shot command whose server is
    /// unreachable or refused (a TLS certificate that does not verify, a wrong password) fails at
    /// once with the reason, instead of waiting on the pool's retries.
    ///
    /// - Throws: ``StorageError`` `.connection` naming the server and the reason.
    static func probe(_ database: DatabaseConfiguration, logger: Logger) async throws {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try database.connectionConfiguration(), id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw StorageError(
                code: .connection,
                message:
                    "cannot connect to \(database.redactedURL) (sslmode=\(database.tlsMode)): \(String(reflecting: error))"
            )
        }
    }
}
