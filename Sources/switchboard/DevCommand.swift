import ArgumentParser
import Logging
import Roles

/// `switchboard dev`: the whole system in one process on the embedded defaults.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Run every role in one process: embedded Kafka, ingest, IVR hook, console (PostgreSQL from the URL)."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        try await DevRole.build(role.context()).run()
        Logger(label: "switchboard").info("stopped")
    }
}
