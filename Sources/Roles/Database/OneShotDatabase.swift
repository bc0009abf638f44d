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
        let database = try DatabaseConfiguration(url: settings.databaseURL)
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            await client.start(in: &group)
            defer { group.cancelAll() }
            return try await body(client, logger)
        }
    }
}
