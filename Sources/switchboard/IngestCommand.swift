import ArgumentParser
import Roles

/// `switchboard ingest`: one ingest worker (scale out by running more in the same group).
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Consume CTRs, agent events and contact events from Kafka into PostgreSQL, exactly once."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        try await IngestRole.build(role.context(requiringKafkaFor: "ingest needs a Kafka cluster")).run()
    }
}
