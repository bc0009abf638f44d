import Storage

/// `switchboard migrate`: the one-shot role that applies the migrations and exits.
public enum MigrateRole {
    /// Applies the migrations and the analysts' data (allow-list, calendar, business days of `flows/`).
    ///
    /// - Returns: A line for the operator: what was applied, or that the schema is current.
    /// - Throws: What connecting or migrating throws.
    public static func run(_ settings: Settings) async throws -> String {
        try await OneShotDatabase.connected(settings) { client, logger in
            let analysts = AnalystSetup(settings: settings, logger: logger)
            let applied = try await MigrationService.migrate(client: client, analysts: analysts, logger: logger)
            guard applied.isEmpty else { return "applied migrations \(applied)" }
            return "schema is current (version \(try await Migrator(client: client, logger: logger).currentVersion()))"
        }
    }
}
