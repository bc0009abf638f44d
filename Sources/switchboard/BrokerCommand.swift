import ArgumentParser
import Roles

/// `switchboard broker`: the embedded Kafka (librdkafka's mock cluster) as its own process.
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker",
        abstract: "Run librdkafka's mock Kafka cluster as a process, for local multi-process set-ups (not production)."
    )

    @Option(help: "Brokers of the cluster.")
    var brokers = 1

    @Option(help: "Partitions per topic.")
    var partitions = 6

    @Option(help: "Also write the bootstrap address to this file.")
    var bootstrapFile: String?

    func validate() throws {
        guard (1...9).contains(brokers) else { throw ValidationError("--brokers must be 1 to 9") }
        guard (1...1024).contains(partitions) else { throw ValidationError("--partitions must be 1 to 1024") }
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        try await BrokerRole.build(
            .bootstrap(settings), brokers: brokers, partitions: partitions, bootstrapFile: bootstrapFile
        ).run()
    }
}
