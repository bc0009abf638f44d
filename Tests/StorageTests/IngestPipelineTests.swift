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

    func nextBatch(maximumRecords: Int) async throws -> [SourceRecord]? {
        let count = min(batch, maximumRecords)
        let first = taken.withLock { taken -> Int? in
            guard taken < total else { return nil }
            defer { taken += count }
            return taken
        }
        guard let first else { return nil }
        return WriteRecoveryTests.records(count, from: Int64(first))
    }
}

/// A source of fixed batches; then it ends, and says so.
private final class ListSource: IngestSource {
    let batches: Mutex<[[SourceRecord]]>
    let ended = Mutex(false)

    init(_ batches: [[SourceRecord]]) { self.batches = Mutex(batches) }

    func nextBatch(maximumRecords: Int) async throws -> [SourceRecord]? {
        let next = batches.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if next == nil { ended.withLock { $0 = true } }
        return next
    }
}

@Suite("Ingest pipeline: lanes, the in-flight bound, a source that ends")
struct IngestPipelineTests {
    /// The write timeout of tests that hold a lock the writes wait for, for a time the machine's
    /// load decides. A deadline that falls while the lock is held abandons the attempt, and one
    /// that falls just after its release may abandon an attempt whose `COMMIT` was already sent:
    /// the retry then finds the batch written by it (`alreadyWritten`) and the totals leave out
    /// its rows. `WriteRecoveryTests.stuckWrite` is the test of deadlines; these test the lanes.
    static let patientWrites = Duration.seconds(600)

    /// Runs `body` with a pipeline of `configuration` over a fresh, migrated database.
    static func withPipeline(
        _ name: String, _ configuration: IngestPipeline.Configuration,
        _ body: @Sendable (PostgresClient, DatabaseConfiguration, IngestPipeline) async throws -> Void
    ) async throws {
        try await TestDatabase.withFreshDatabase(name) { client, database in
            try await TestDatabase.migrate(client)
            let pipeline = IngestPipeline(
                configuration: configuration, client: client, database: database, logger: TestDatabase.logger)
            try await body(client, database, pipeline)
        }
    }

    @Test("claimed partitions are spread evenly over the lanes; one with parts in flight keeps its lane")
    func balancedLanes() async throws {
        try await Self.withPipeline("lanes", .init(group: "g", lanes: 2)) { _, _, pipeline in
            let topic = (0..<4).map { PartitionKey(topic: "contact-records", partition: Int32($0)) }
            _ = try await pipeline.claim(topic)
            func lanes(_ partitions: [PartitionKey]) -> [Int] { partitions.map { pipeline.lane(of: $0) } }
            // Every worker's four partitions over two lanes: two each, whatever the process's hash seed.
            #expect(lanes(topic).filter { $0 == 0 }.count == 2, "\(lanes(topic))")
            // Partitions claimed later go to the lighter lane.
            let events = (0..<3).map { PartitionKey(topic: "agent-events", partition: Int32($0)) }
            _ = try await pipeline.claim(events)
            let all = lanes(topic + events)
            #expect(abs(all.filter { $0 == 0 }.count - all.filter { $0 == 1 }.count) <= 1, "\(all)")
            // Claimed again (a rebalance) while one still has a part in flight: that one stays.
            let busy = topic[1]
            let busyLane = pipeline.lane(of: busy)
            let record = SourceRecord(topic: busy.topic, partition: busy.partition, offset: 0, key: nil, value: nil)
            _ = pipeline.healthState.withLock { $0.scheduler.take([record], at: .now) }
            await pipeline.release(topic.filter { $0 != busy })
            _ = try await pipeline.claim(topic)
            #expect(pipeline.lane(of: busy) == busyLane)
            let again = lanes(topic + events)
            #expect(abs(again.filter { $0 == 0 }.count - again.filter { $0 == 1 }.count) <= 1, "\(again)")
            // Never claimed (the import's pseudo-partitions of each file): the number chooses the
            // lane, evenly, and a contact's pseudo-partition takes the same lane in every file.
            let file = (0..<16).map { PartitionKey(topic: "import:a.json", partition: Int32($0)) }
            #expect(lanes(file).filter { $0 == 0 }.count == 8)
            #expect(
                lanes(file) == lanes(file.map { PartitionKey(topic: "import:b.json", partition: $0.partition) }))
        }
    }

    @Test(
        "batches that queue while a lane writes share its next transaction, up to the per-transaction bound",
        arguments: [(8_000, 1...2), (300, 4...5)])
    func queuedBatchesShareATransaction(perTransaction: Int, transactions: ClosedRange<Int>) async throws {
        // The lock is held for as long as the machine's load makes the pump take: no write
        // deadline may fall in it (see `IngestPipelineTests.patientWrites`).
        let configuration = IngestPipeline.Configuration(
            group: "g", lanes: 1, writeTimeout: Self.patientWrites, maximumRecordsInFlight: 10_000,
            maximumRecordsPerTransaction: perTransaction)
        try await Self.withPipeline("merged_\(perTransaction)", configuration) { client, database, pipeline in
            _ = try await pipeline.claim([WriteRecoveryTests.partition])
            // 20 batches of 50 records; contacts 0–99 come again in the last two batches as
            // newer versions, which must replace the first ones across the merged batches.
            var fixtures = TrafficFixtures(seed: 17)
            var batches: [[SourceRecord]] = []
            for number in 0..<20 {
                batches.append(
                    (0..<50).map { position in
                        let offset = number * 50 + position
                        let contact = number >= 18 ? offset - 900 : offset
                        return SourceRecord(
                            topic: WriteRecoveryTests.partition.topic, partition: 0, offset: Int64(offset), key: nil,
                            value: Array(
                                fixtures.contactRecord(index: contact, version: number >= 18 ? 1 : 0).jsonData()))
                    })
            }
            let source = ListSource(batches)
            let locker = try await WriteRecoveryTests.lockingContactRecord(database)
            defer { locker.closeChannel() }

            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await pipeline.run(source: source, isStopping: { false }) }
                // Every batch is taken, decoded and queued while the lane's first transaction
                // waits for the lock.
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(30)
                func allQueued() -> Bool {
                    source.ended.withLock { $0 } && pipeline.healthState.withLock { $0.partsQueued } == 20
                }
                while !allQueued(), clock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(allQueued())
                #expect(pipeline.health.batchesWritten == 0)
                try await Transaction.statement("COMMIT", on: locker, logger: TestDatabase.logger)
                try await group.next()
            }
            // Without merging: 20 transactions. With it: the first (whatever was queued when the
            // lane woke, at least one batch) and the rest together, or in parts of at most
            // `perTransaction` records.
            #expect(
                transactions.contains(pipeline.health.batchesWritten), "\(pipeline.health.batchesWritten) transactions")
            let rowsPerTransaction = try await WriteRecoveryTests.count(
                client, "SELECT max(n)::bigint FROM (SELECT count(*) AS n FROM contact_record GROUP BY xmin::text) t")
            #expect(rowsPerTransaction <= perTransaction)
            #expect(try await WriteRecoveryTests.count(client, "SELECT count(*) FROM contact_record") == 900)
            #expect(
                try await WriteRecoveryTests.count(client, "SELECT sum(versions_seen)::bigint FROM contact_record")
                    == 1_000)
            #expect(
                try await WriteRecoveryTests.count(
                    client,
                    "SELECT count(*) FROM contact_record WHERE versions_seen = 2 AND attributes->>'version' = '1'")
                    == 100)
            #expect(try await pipeline.storedOffsets() == [WriteRecoveryTests.partition: 1_000])
            // Versions of a contact merged into one transaction are one write.
            #expect((900...1_000).contains(pipeline.totals.contactRecordsWritten))
        }
    }

    @Test("a cancelled run throws: it never returns as if its source had ended")
    func cancelledRunThrows() async throws {
        try await Self.withPipeline("cancelled_run", .init(group: "g", lanes: 2, maximumRecordsInFlight: 400)) {
            client, _, pipeline in
            _ = try await pipeline.claim([WriteRecoveryTests.partition])
            // A source far longer than the test: only cancellation ends the run.
            let source = CountingSource(total: 100_000_000, batch: 100)
            let run = Task { try await pipeline.run(source: source, isStopping: { false }) }
            while pipeline.health.batchesWritten < 3 { try await Task.sleep(for: .milliseconds(20)) }
            run.cancel()
            // Returning normally would tell the import that every file was read and written.
            await #expect(throws: CancellationError.self) { try await run.value }
            let written = try await WriteRecoveryTests.count(
                client, "SELECT coalesce(sum(versions_seen), 0)::bigint FROM contact_record")
            #expect(try await pipeline.storedOffsets() == [WriteRecoveryTests.partition: Int64(written)])
        }
    }

    @Test("while writes wait, the source is not asked for more than the in-flight bound; then all is written once")
    func inFlightBound() async throws {
        let configuration = IngestPipeline.Configuration(
            group: "g", lanes: 2, writeTimeout: Self.patientWrites, maximumRecordsInFlight: 300)
        try await Self.withPipeline("in_flight", configuration) {
            client, database, pipeline in
            _ = try await pipeline.claim([WriteRecoveryTests.partition])
            // Every insert into contact_record waits for this lock until it is released.
            let locker = try await WriteRecoveryTests.lockingContactRecord(database)
            defer { locker.closeChannel() }

            let source = CountingSource(total: 2_000, batch: 100)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await pipeline.run(source: source, isStopping: { false }) }
                // The pump asks for no more than the room under the bound: it fills the bound
                // (in batches of 100) and stops there, however long the writes wait.
                let deadline = ContinuousClock.now + .seconds(60)
                while source.taken.withLock({ $0 }) < 300, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Task.sleep(for: .seconds(1))
                let takenWhileBlocked = source.taken.withLock { $0 }
                #expect(takenWhileBlocked == 300, "\(takenWhileBlocked) records taken while writes wait")
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
