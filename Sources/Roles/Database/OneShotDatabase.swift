import Logging
import PostgresNIO
import Storage

/// A connected database for one-shot commands (`migrate`, `import`, `dlq`).
public enum OneShotDatabase {
    /// Runs `body` with a running client to `settings`' database, after applying the migrations.
    ///
    /// - Throws: What connecting, migrating or `body` throws.
    public static func run<T: Sendable>(
        _ settings: Settings, _ body: @Sendable (PostgresClient, Logger) async throws -> T
    ) async throws -> T {
        try await connected(settings) { client, logger in
            try await MigrationService.migrate(client: client, logger: logger)
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
        let database = try DatabaseConfiguration(url: settings.databaseURL)
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client, logger)
        }
    }
}
