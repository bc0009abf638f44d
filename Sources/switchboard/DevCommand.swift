import ArgumentParser
import Foundation
import Kafka
import Logging
import PostgresNIO
import Prometheus
import Server
import ServiceLifecycle
import Storage

/// `switchboard dev`: the whole system in one process on the embedded defaults.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Run every role in one process: embedded Kafka, ingest, IVR hook, console (PostgreSQL from the URL)."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        let settings = try role.settings()
        let logger = Logger(label: "switchboard")
        let registry = MetricsSetup.bootstrap()

        var cluster: EmbeddedKafkaCluster? = nil
        var bootstrap = settings.kafkaBootstrap
        if bootstrap.isEmpty {
            let embedded = try EmbeddedKafkaCluster(
                brokers: settings.embeddedBrokers, logger: Logger(label: "kafka.embedded"))
            for topic in settings.topics {
                try embedded.createTopic(topic, partitions: settings.embeddedPartitions)
            }
            bootstrap = embedded.bootstrapServers
            cluster = embedded
        }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(common: KafkaConfiguration(bootstrapServers: bootstrap)),
            logger: Logger(label: "kafka.producer")
        )
        let database = try DatabaseConfiguration(url: settings.databaseURL)
        let postgres = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)

        let ingest = IngestService(
            settings: settings,
            bootstrap: bootstrap,
            client: postgres,
            database: database,
            logger: Logger(label: "switchboard.ingest")
        )
        let hook = HookWiring(settings: settings, logger: logger)
        let floor = FloorWiring(settings: settings, bootstrap: bootstrap, metadata: { try await producer.metadata() })
        let application = buildApplication(
            configuration: ServerConfiguration(host: settings.httpHost, port: settings.httpPort),
            dependencies: ServerDependencies(
                readinessChecks: [
                    DatabaseReadinessCheck(client: postgres),
                    KafkaReadinessCheck(producer: producer, topics: settings.topics),
                    ingest.readinessCheck,
                    hook.readinessCheck,
                    floor.readinessCheck,
                ],
                metricsRegistry: registry,
                routeProviders: hook.routeProviders + [floor.routes]
            ),
            logger: Logger(label: "switchboard.http")
        )
        let banner = DevBanner(settings: settings, bootstrap: bootstrap, embedded: cluster != nil, database: database)
        let startup = StartupService(name: "migrations", logger: logger) {
            try await Migrator(client: postgres, logger: logger).migrate(SwitchboardSchema.migrations)
            banner.print()
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: postgres),
            .init(service: startup),
            .init(service: ingest),
            .init(service: hook.reloadService),
            .init(service: floor.publisher),
            .init(service: application),
        ]
        if settings.simulatorEnabled {
            // Simulated time starts now, so the console shows live agents at once; the service
            // waits for /health before it calls the hook, and its end never stops the others.
            let hookURL = URL(string: "http://\(settings.httpHost):\(settings.httpPort)/v1/hooks/main")!
            let simulator = SimulatorService(
                options: settings.simulatorOptions(hookURL: hookURL), settings: settings, producer: producer,
                logger: Logger(label: "switchboard.simulator"))
            services.append(.init(service: simulator, successTerminationBehavior: .ignore))
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        await producer.close(timeout: .seconds(2))
        withExtendedLifetime(cluster) {}
        logger.info("stopped")
    }
}

/// What `switchboard dev` started and where, printed once it is up.
struct DevBanner: Sendable {
    var settings: Settings
    var bootstrap: String
    var embedded: Bool
    var database: DatabaseConfiguration

    func print() {
        let http = "http://\(settings.httpHost):\(settings.httpPort)"
        var analyst = database
        analyst.username = "switchboard_analyst"
        let lines = [
            "",
            "Switchboard is running (Ctrl-C stops everything).",
            "  Console     \(http)/console",
            "  IVR hook    curl -s -X POST \(http)/v1/hooks/main -H 'content-type: application/json' \\",
            "                -d '{\"storeId\": \"shibuya-trattoria\"}'",
            "  Kafka       \(bootstrap)\(embedded ? "  (embedded, \(settings.embeddedPartitions) partitions per topic)" : "")",
            "              topics: \(settings.topics.joined(separator: ", "))   try: kcat -b \(bootstrap) -L",
            "  PostgreSQL  \(database.redactedURL)",
            "  Analysts    psql \(analyst.redactedURL) \\",
            "                -c 'SELECT * FROM queue_interval_metrics ORDER BY interval_start DESC LIMIT 10'",
            "  HTTP        health: \(http)/health   ready: \(http)/ready   metrics: \(http)/metrics",
            "",
        ]
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
