import ContactCenter
import Logging
import PostgresNIO
import Primitives
import Services
import Storage

/// The seeder's history written as the ingest writes it (group `switchboard-dev-seed`).
struct IngestSeedHistoryStore: SeedHistoryStore {
    let client: PostgresClient
    let logger: Logger

    func hasNoContacts() async throws -> Bool {
        let rows = try await client.query("SELECT NOT EXISTS (SELECT 1 FROM contact_record)", logger: logger)
        for try await isEmpty in rows.decode(Bool.self) { return isEmpty }
        return true
    }

    func write(contactRecords records: [SimulatedMessage]) async throws {
        let writer = IngestWriter(client: client, group: "switchboard-dev-seed", logger: logger)
        let topic = IngestTopics().contactRecords
        let source = records.enumerated().map { index, message in
            SourceRecord(
                topic: topic, partition: 0, offset: Int64(index), key: Array(message.key.utf8),
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
            agents: settings.simulatorAgents, seed: settings.simulatorSeed, schema: schema, logger: logger)
    }
}
