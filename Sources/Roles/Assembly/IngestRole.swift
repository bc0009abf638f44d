import Logging
import PostgresNIO
import ServiceLifecycle
import Storage

/// `switchboard ingest`: one ingest worker of the consumer group (scale out by running more).
///
/// Services, in start order: the PostgreSQL client, the migrations (once), the ingest (after
/// the migrations), the HTTP server (`/ready`: database and ingest) and its readiness gauges.
public enum IngestRole {
    /// - Throws: A `DatabaseConfiguration` error for a malformed database URL.
    public static func build(_ context: RoleContext) throws -> ServiceGroup {
        let settings = context.settings
        let logger = Logger(label: "switchboard.ingest")
        let database = try DatabaseConfiguration(url: settings.databaseURL)
        let postgres = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        let schema = StartupGate()
        let ingest = IngestService(
            settings: settings, bootstrap: settings.kafkaBootstrap, client: postgres, database: database,
            schema: schema,
            logger: logger)
        let http = context.http(readiness: [DatabaseReadinessCheck(client: postgres), ingest.readinessCheck])
        return context.group(
            [
                .init(service: postgres),
                .init(service: MigrationService(client: postgres, gate: schema, logger: logger)),
                .init(service: ingest),
            ] + http)
    }
}
