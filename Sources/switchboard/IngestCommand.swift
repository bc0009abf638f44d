import ArgumentParser
import Logging
import Metrics
import PostgresNIO
import Prometheus
import Server
import ServiceLifecycle
import Storage

/// `switchboard ingest`: one ingest worker (scale out by running more in the same group).
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Consume CTRs, agent events and contact events from Kafka into PostgreSQL, exactly once."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        let settings = try role.settings(requiringKafkaFor: "ingest needs a Kafka cluster")
        let logger = Logger(label: "switchboard.ingest")
        let registry = MetricsSetup.bootstrap()
        let database = try DatabaseConfiguration(url: settings.databaseURL)
        let postgres = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        let ingest = IngestService(
            settings: settings, bootstrap: settings.kafkaBootstrap, client: postgres, database: database, logger: logger
        )
        let application = buildApplication(
            configuration: ServerConfiguration(host: settings.httpHost, port: settings.httpPort),
            dependencies: ServerDependencies(
                readinessChecks: [DatabaseReadinessCheck(client: postgres), ingest.readinessCheck],
                metricsRegistry: registry
            ),
            logger: Logger(label: "switchboard.http")
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: postgres), .init(service: ingest), .init(service: application)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}
