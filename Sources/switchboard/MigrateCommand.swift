import ArgumentParser
import Roles
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
        let message = try await MigrateRole.run(settings)
        print(message)
    }
}
