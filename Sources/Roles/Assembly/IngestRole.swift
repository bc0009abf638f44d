import Logging
import PostgresNIO
import Primitives
import ServiceLifecycle
import Services
import Storage

/// `switchboard ingest`: one ingest worker of the consumer group (scale out by running more).
///
/// Services, in start order: the PostgreSQL client, the migrations (once), the ingest (after
/// the migrations), the flows reloader (the analysts' business days), the HTTP server (`/ready`:
/// database and ingest) and its readiness gauges.
public enum IngestRole {
    /// - Throws: A `DatabaseConfiguration` error for a malformed database URL.
    public static func build(_ context: RoleContext) throws -> ServiceGroup {
        Allocator.tuneForIngest()
        let settings = context.settings
        let logger = Logger(label: "switchboard.ingest")
        if let decay = Allocator.jemallocDirtyDecayMilliseconds {
            logger.info("memory allocator: jemalloc", metadata: ["dirty_decay_ms": "\(decay)"])
        } else {
            logger.info("memory allocator: the C library's")
        }
        let database = try settings.databaseConfiguration()
        let postgres = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        let schema = StartupGate()
        let ingest = IngestService(
            settings: settings, bootstrap: settings.kafkaBootstrap, client: postgres, database: database,
            schema: schema,
            logger: logger)
        let http = context.http(readiness: [
            DatabaseReadinessCheck(client: postgres), SchemaReadinessCheck(gate: schema), ingest.readinessCheck,
        ])
        // flows/ gives the analysts' store business days: written at start, rewritten when it
        // changes (when the worker has no flows/, they stay as the last writer left them).
        let flows = FlowStore(directory: settings.flowsDirectory, logger: Logger(label: "switchboard.flows"))
        let hasFlows = flows.reload(force: true).isLoaded
        if !hasFlows {
            logger.warning("no valid flows/ at \(settings.flowsDirectory): store business days are not rewritten")
        }
        let analysts = AnalystSetup(attributeKeys: settings.analystAttributeKeys, flows: { flows.current?.flows })
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: postgres),
            .init(
                service: MigrationService(
                    client: postgres, gate: schema, analysts: analysts, mode: .verify, logger: logger)),
            .init(service: ingest),
        ]
        if hasFlows {
            services.append(
                .init(
                    service: FlowReloadService(
                        store: flows, pollInterval: .milliseconds(settings.flowsPollIntervalMilliseconds),
                        onLoad: AnalystSetup.businessDayRewriter(client: postgres, schema: schema, logger: logger))))
        }
        return context.group(services + http)
    }
}
