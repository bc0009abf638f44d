import Logging
import PostgresNIO
import Storage

/// A connected database for one-shot commands (`migrate`, `import`, `dlq`).
public enum OneShotDatabase {
    /// Runs `body` with a running client to `settings`' database, after applying the migrations.
    ///
    /// - Parameter analysts: What the migration writes for the analysts; by default from
    ///   `settings` (reading `flows/`).
    /// - Throws: What connecting, migrating or `body` throws.
    public static func run<T: Sendable>(
        _ settings: Settings, analysts: AnalystSetup? = nil,
        _ body: @Sendable (PostgresClient, Logger) async throws -> T
    ) async throws -> T {
        try await connected(settings) { client, logger in
            let analysts = analysts ?? AnalystSetup(settings: settings, logger: logger)
            try await MigrationService.migrate(client: client, analysts: analysts, logger: logger)
            return try await body(client, logger)
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
            return try await body(client, logger)
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
