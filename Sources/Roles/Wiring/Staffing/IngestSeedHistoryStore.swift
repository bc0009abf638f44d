import ContactCenter
import Logging
import PostgresNIO
import Primitives
import Services
import Storage
import Synchronization

/// The seeder's history written as the ingest writes it (group `switchboard-dev-seed`): one
/// writer, and offsets that count on across batches, so each record keeps its own place (the
/// dead-letter table's key, the version guard's tie-break).
final class IngestSeedHistoryStore: SeedHistoryStore {
    let client: PostgresClient
    let logger: Logger
    private let writer: IngestWriter
    private let nextOffset = Mutex<Int64>(0)

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        writer = IngestWriter(client: client, group: "switchboard-dev-seed", logger: logger)
    }

    func hasNoContacts() async throws -> Bool {
        let rows = try await client.query("SELECT NOT EXISTS (SELECT 1 FROM contact_record)", logger: logger)
        for try await isEmpty in rows.decode(Bool.self) { return isEmpty }
        return true
    }

    func write(contactRecords records: [SimulatedMessage]) async throws {
        let topic = IngestTopics().contactRecords
        let first = nextOffset.withLock { next in
            defer { next += Int64(records.count) }
            return next
        }
        let source = records.enumerated().map { index, message in
            SourceRecord(
                topic: topic, partition: 0, offset: first + Int64(index), key: Array(message.key.utf8),
                value: Array(message.value))
        }
        _ = try await writer.write(IngestDecoder().decode(source), claims: nil)
    }
}

extension StaffingHistorySeeder {
    /// A seeder writing through `client` with the flows and simulator settings of `settings`;
    /// as a service, it starts once `schema` opens.
    public init(settings: Settings, client: PostgresClient, schema: StartupGate = .opened(), logger: Logger) {
        self.init(
            store: IngestSeedHistoryStore(client: client, logger: logger), flowsDirectory: settings.flowsDirectory,
            agents: settings.simulatorAgents, seed: settings.simulatorSeed, shocks: settings.simulatorShocks,
            schema: schema, logger: logger)
    }
}
