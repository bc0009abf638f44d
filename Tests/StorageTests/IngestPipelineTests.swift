import PostgresNIO
import SwitchboardTesting
import Synchronization
import Testing

@testable import Storage

/// A source of `total` contact records of partition 0, in batches of `batch`; then it ends.
private final class CountingSource: IngestSource {
    let total: Int
    let batch: Int
    let taken = Mutex(0)

    init(total: Int, batch: Int) {
        self.total = total
        self.batch = batch
    }

    func nextBatch() async throws -> [SourceRecord]? {
        let first = taken.withLock { taken -> Int? in
            guard taken < total else { return nil }
            defer { taken += batch }
            return taken
        }
        guard let first else { return nil }
        return WriteRecoveryTests.records(batch, from: Int64(first))
    }
}

@Suite("Ingest pipeline: lanes, the in-flight bound, a source that ends")
struct IngestPipelineTests {
    @Test("while writes wait, the source is not asked for more than the in-flight bound; then all is written once")
    func inFlightBound() async throws {
        try await TestDatabase.withFreshDatabase("in_flight") { client, database in
            try await Migrator(client: client, logger: TestDatabase.logger).migrate(SwitchboardSchema.migrations)
            let pipeline = IngestPipeline(
                configuration: .init(group: "g", lanes: 2, maximumRecordsInFlight: 300),
                client: client, database: database, logger: TestDatabase.logger)
            _ = try await pipeline.claim([WriteRecoveryTests.partition])
            // Every insert into contact_record waits for this lock until it is released.
            let locker = try await PostgresConnection.connect(
                configuration: try database.connectionConfiguration(), id: 99, logger: TestDatabase.logger)
            defer { locker.closeChannel() }
            try await Transaction.statement("BEGIN", on: locker, logger: TestDatabase.logger)
            try await Transaction.statement(
                "LOCK TABLE contact_record IN SHARE MODE", on: locker, logger: TestDatabase.logger)

            let source = CountingSource(total: 2_000, batch: 100)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await pipeline.run(source: source, isStopping: { false }) }
                // Give the pump time to pull as much as it would (2,000 records take it well under
                // a second): it must stop below the bound plus the one batch it may pull last.
                try await Task.sleep(for: .seconds(2))
                let takenWhileBlocked = source.taken.withLock { $0 }
                #expect(takenWhileBlocked >= 100, "the pump pulled")
                #expect(takenWhileBlocked <= 300 - 1 + 100, "\(takenWhileBlocked) records taken while writes wait")
                #expect(pipeline.health.oldestUnwrittenBatchAge != nil)

                try await Transaction.statement("COMMIT", on: locker, logger: TestDatabase.logger)
                // The source ends: run() returns once every record taken is written.
                try await group.next()
            }
            #expect(source.taken.withLock { $0 } == 2_000)
            #expect(
                try await WriteRecoveryTests.count(client, "SELECT sum(versions_seen)::bigint FROM contact_record")
                    == 2_000)
            #expect(try await pipeline.storedOffsets() == [WriteRecoveryTests.partition: 2_000])
            #expect(pipeline.health.oldestUnwrittenBatchAge == nil)
            #expect(pipeline.totals.contactRecordsWritten == 2_000)
        }
    }
}
