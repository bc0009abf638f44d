import ArgumentParser
import Kafka
import Logging
import Server
import ServiceLifecycle

/// `switchboard serve`: the stateless HTTP role: IVR hook and live console (scale out freely).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the IVR hook and the live console (stateless; run any number of replicas)."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        let settings = try role.settings(requiringKafkaFor: "the console reads Kafka")
        let logger = Logger(label: "switchboard.serve")
        let registry = MetricsSetup.bootstrap()
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                common: KafkaConfiguration(bootstrapServers: settings.kafkaBootstrap)),
            logger: Logger(label: "kafka.metadata")
        )
        let hook = HookWiring(settings: settings, logger: logger)
        let floor = FloorWiring(
            settings: settings,
            bootstrap: settings.kafkaBootstrap,
            metadata: { try await producer.metadata() }
        )
        let application = buildApplication(
            configuration: ServerConfiguration(host: settings.httpHost, port: settings.httpPort),
            dependencies: ServerDependencies(
                readinessChecks: [
                    KafkaReadinessCheck(
                        producer: producer, topics: [settings.agentEventsTopic, settings.contactEventsTopic]),
                    hook.readinessCheck,
                    floor.readinessCheck,
                ],
                metricsRegistry: registry,
                routeProviders: hook.routeProviders + [floor.routes]
            ),
            logger: Logger(label: "switchboard.http")
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: hook.reloadService),
                    .init(service: floor.publisher),
                    .init(service: application),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        await producer.close(timeout: .seconds(2))
    }
}
