import Foundation
import Kafka
import Logging
import PostgresNIO
import Primitives
import Server
import ServiceLifecycle
import Services
import Storage

/// `switchboard dev`: every role in one process on the embedded defaults: the embedded Kafka
/// cluster (unless a bootstrap is set), ingest, IVR hook, console, the receiver and the traffic
/// simulator (delivering through the receiver, as Firehose would, unless
/// `SWITCHBOARD_SIMULATOR_VIA=kafka`).
///
/// Services, in start order: the embedded cluster, the PostgreSQL client, the producer, the
/// migrations (once, then the banner), the ingest, the flows reloader, the floor publisher, the
/// staffing shortfall gauges, the receiver's producer, the HTTP server (with the readiness gauges
/// and the drain), the simulator.
public enum DevRole {
    /// - Throws: `KafkaError` when the embedded cluster or the producer cannot start, or a
    ///   `DatabaseConfiguration` error for a malformed database URL.
    ///
    /// It refuses to bind beyond loopback while a surface has no credentials. Open on loopback, the
    /// server answers only requests whose `Host` is a loopback name, POSTs of JSON, and streams
    /// whose `Origin` is its own (``LocalAccessGuard``): a web page the developer visits can then
    /// neither post to it nor read its streams.
    public static func build(_ context: RoleContext) throws -> ServiceGroup {
        let settings = context.settings
        let logger = Logger(label: "switchboard")
        let open = settings.surfacesWithoutCredentials
        if !open.isEmpty && !settings.bindsLoopbackOnly {
            throw SettingsError(
                key: "SWITCHBOARD_HTTP_HOST", value: settings.httpHost,
                expected:
                    "a loopback address while \(open.map(\.rawValue).joined(separator: ", ")) \(open.count == 1 ? "has" : "have") no credentials (set \(open.map(\.credentialVariables).joined(separator: "; ")))"
            )
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var bootstrap = settings.kafkaBootstrap
        if bootstrap.isEmpty {
            let embedded = try EmbeddedKafkaCluster(
                brokers: settings.embeddedBrokers, logger: Logger(label: "kafka.embedded"))
            for topic in settings.topics {
                try embedded.createTopic(topic, partitions: settings.embeddedPartitions)
            }
            bootstrap = embedded.bootstrapServers
            services.append(.init(service: EmbeddedKafkaService(cluster: embedded)))
        }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                common: settings.kafka(bootstrap: bootstrap, clientID: "switchboard-dev")),
            logger: Logger(label: "kafka.producer"))
        let database = try settings.databaseConfiguration()
        let postgres = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        let schema = StartupGate()
        // The embedded cluster's topics are new on every run; the offsets a kept database holds
        // from the last run would point past their ends.
        let ingest = IngestService(
            settings: settings, bootstrap: bootstrap, client: postgres, database: database, schema: schema,
            brokerIsNew: bootstrap != settings.kafkaBootstrap, logger: Logger(label: "switchboard.ingest"))
        // The analysts' business days follow the hook's flows: rewritten at start and on each reload.
        let hook = HookWiring(
            settings: settings, logger: logger,
            onReload: AnalystSetup.businessDayRewriter(client: postgres, schema: schema, logger: logger))
        let store = hook.store
        let analysts = AnalystSetup(
            attributeKeys: settings.analystAttributeKeys, flows: { store.current?.flows })
        let floor = FloorWiring(settings: settings, bootstrap: bootstrap, metadata: { try await producer.metadata() })
        let receiver = try ReceiverWiring(settings: settings, bootstrap: bootstrap, open: true, logger: logger)
        let planner = StaffingPlanner.console(client: postgres, logger: logger)
        let intraday = IntradayWiring(
            client: postgres, planner: planner, settings: settings, floor: floor, schema: schema,
            logger: Logger(label: "switchboard.staffing"))
        let mcp = MCPWiring(
            settings: settings, hook: hook, floor: floor, staffing: planner, intraday: intraday, open: true,
            logger: logger)
        let http = context.http(
            readiness: [
                DatabaseReadinessCheck(client: postgres),
                SchemaReadinessCheck(gate: schema),
                KafkaReadinessCheck(producer: producer, topics: settings.topics),
                ingest.readinessCheck,
                hook.readinessCheck,
                floor.readinessCheck,
            ] + (receiver.readinessCheck.map { [$0] } ?? []),
            scopes: RoleContext.serveScopes.merging(ReceiverWiring.scope) { $1 },
            routes: hook.routeProviders + [floor.routes, receiver.routes, mcp.routes]
                + [
                    planner.routes(settings: settings, floor: floor, intraday: intraday)
                ],
            drain: ShutdownDrain(), localAccess: open.isEmpty ? nil : LocalAccessGuard())
        let banner = DevBanner(
            settings: settings, bootstrap: bootstrap, embedded: bootstrap != settings.kafkaBootstrap,
            database: database)
        services +=
            [
                .init(service: postgres),
                .init(service: producer),
                .init(
                    service: MigrationService(
                        client: postgres, gate: schema, analysts: analysts, mode: .migrate, logger: logger,
                        afterwards: { banner.print() })),
                .init(service: ingest),
                .init(service: hook.reloadService),
                .init(service: floor.publisher),
            ] + intraday.services + receiver.services
        if settings.simulatorEnabled {
            // Simulated time starts now, so the console shows live agents at once; the service
            // waits for /health before it calls the hook, and its end never stops the others.
            // By default through the receiver, as Amazon Connect's data arrives in production.
            let base = "http://\(settings.httpHost):\(settings.httpPort)"
            var options = settings.simulatorOptions(hookURL: URL(string: "\(base)/v1/hooks/main")!)
            options.via = settings.simulatorVia ?? .firehose
            options.receiverURL = URL(string: "\(base)/v1/firehose")!
            let simulator = SimulatorService(
                options: options, flowsDirectory: settings.flowsDirectory,
                kafka: KafkaSimulatorSink(producer: producer, settings: settings),
                logger: Logger(label: "switchboard.simulator"))
            // After the server: a group stops its services in reverse order, so the simulator
            // stops before the receiver it delivers to.
            // On an empty database, simulated history first, so the staffing panel has a forecast.
            let seeder = StaffingHistorySeeder(
                settings: settings, client: postgres, schema: schema, logger: Logger(label: "switchboard.staffing"))
            return context.group(
                services + http + [
                    .init(service: simulator, successTerminationBehavior: .ignore),
                    .init(service: seeder, successTerminationBehavior: .ignore),
                ])
        }
        return context.group(services + http)
    }
}
