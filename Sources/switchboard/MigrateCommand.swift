import ArgumentParser
import Logging
import PostgresNIO
import Storage

/// `switchboard migrate`: applies the schema's migrations and exits.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the database migrations (idempotent; safe to run from several processes at once)."
    )

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        let logger = Logger(label: "switchboard.migrate")
        let database = try DatabaseConfiguration(url: settings.databaseURL)
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let migrator = Migrator(client: client, logger: logger)
            let applied = try await migrator.migrate(SwitchboardSchema.migrations)
            try await AnalystCalendar.sync(client: client, logger: logger)
            print(
                applied.isEmpty
                    ? "schema is current (version \(try await migrator.currentVersion()))"
                    : "applied migrations \(applied)")
        }
    }
}
