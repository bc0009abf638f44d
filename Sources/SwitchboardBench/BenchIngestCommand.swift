import ArgumentParser
import ContactCenter
import Foundation
import Kafka
import Logging
import PostgresNIO
import Primitives
import Roles
import Storage
import SwitchboardTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `switchboard-bench bench-ingest` (`make bench-ingest`): end-to-end ingest throughput of
/// realistic CTRs through the embedded Kafka cluster and a separate `switchboard ingest` worker,
/// next to `psql \copy` of the same rows into a table of the same shape, on the same server.
struct BenchIngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-ingest",
        abstract: "Benchmark ingest against PostgreSQL's COPY (prints RESULT ...)."
    )

    @Option(help: "CTRs to produce (5% of them re-emitted updates).")
    var records = 200_000

    @Option(help: "Partitions of the CTR topic (the mock broker keeps ~5 MB per partition).")
    var partitions = 256

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        var database = try DatabaseConfiguration(url: settings.databaseURL)
        let adminClient = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        database.database = "switchboard_bench"
        let benchURL = "postgres://\(database.username)@\(database.host):\(database.port)/\(database.database)"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await adminClient.run() }
            defer { group.cancelAll() }
            try await TestDatabase.recreate("switchboard_bench", admin: adminClient)
        }

        // 1. Generate realistic CTRs (untimed).
        var generator = TrafficFixtures(seed: 42, profile: .benchmark)
        var messages: [(key: [UInt8], value: [UInt8])] = []
        messages.reserveCapacity(records)
        var newest: [String: (ContactTraceRecord, Int)] = [:]
        var bytes = 0
        for index in 0..<records {
            let isUpdate = index % 20 == 19
            let record = generator.contactRecord(index: isUpdate ? index - 7 : index, version: isUpdate ? 1 : 0)
            let value = Array(record.jsonData())
            bytes += value.count
            messages.append((Array(record.contactId.utf8), value))
            newest[record.contactId] = (record, index)
        }
        let distinct = newest.count
        print("generated \(records) CTRs (\(distinct) contacts), \(bytes / records) bytes on average")

        // 2. Produce them to the embedded cluster (untimed).
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        try cluster.createTopic(settings.contactRecordsTopic, partitions: partitions)
        try cluster.createTopic(settings.agentEventsTopic, partitions: 4)
        try cluster.createTopic(settings.contactEventsTopic, partitions: 4)
        let producer = try BackgroundProducer(
            configuration: KafkaProducerConfiguration(
                common: KafkaConfiguration(bootstrapServers: cluster.bootstrapServers)),
            logger: logger
        )
        for message in messages {
            try await producer.enqueue(topic: settings.contactRecordsTopic, key: message.key, value: message.value)
        }
        try await producer.flush(timeout: .seconds(120))
        await producer.close()
        messages = []

        // 3. Ingest with a separate worker process; time from the first committed batch to the last.
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        let (ingestRate, ingestSeconds, rss) = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await Migrator(client: client, logger: logger).migrate(SwitchboardSchema.migrations)
            var environment = ProcessInfo.processInfo.environment
            environment["SWITCHBOARD_DATABASE_URL"] = benchURL
            environment["SWITCHBOARD_INGEST_GROUP"] = "bench"
            environment["SWITCHBOARD_LOG_LEVEL"] = "warning"
            let worker = try ProcessSpawn.start(
                [BenchBinaries.switchboard, "ingest", "--bootstrap", cluster.bootstrapServers, "--http-port", "18099"],
                environment: environment
            )
            defer {
                kill(worker, SIGTERM)
                _ = ProcessSpawn.wait(worker)
            }
            var start: (ContinuousClock.Instant, Int)? = nil
            var end = ContinuousClock.now
            let deadline = ContinuousClock.now + .seconds(900)
            while ContinuousClock.now < deadline {
                let rows = try await client.query(
                    "SELECT coalesce(sum(next_offset), 0)::bigint FROM consumer_offset WHERE consumer_group = 'bench' AND next_offset > 0",
                    logger: logger
                )
                var committed = 0
                for try await value in rows.decode(Int.self) { committed = value }
                let now = ContinuousClock.now
                if start == nil && committed > 0 { start = (now, committed) }
                if committed >= records {
                    end = now
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            guard let (startTime, first) = start else { throw ValidationError("the worker ingested nothing") }
            let seconds = (end - startTime).inSeconds
            return (Double(records - first) / seconds, seconds, ProcessSpawn.peakRSSMegabytes(of: worker))
        }
        let megabytesPerSecond = ingestRate * Double(bytes) / Double(records) / 1_048_576

        // 4. The reference: psql \copy of the same (newest) rows into a table of the same shape.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-copy.tsv")
        var lines = newest.values.sorted { $0.1 < $1.1 }.map {
            ContactRecordColumns.copyTextLine($0.0, partition: 0, offset: Int64($0.1))
        }
        lines.append("")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        lines = []
        let columns = ContactRecordColumns.columnNames.joined(separator: ", ")
        let psql = { (sql: String) throws -> Int32 in
            ProcessSpawn.wait(
                try ProcessSpawn.start(
                    ["/usr/bin/psql", benchURL, "-v", "ON_ERROR_STOP=1", "-qc", sql],
                    environment: ProcessInfo.processInfo.environment))
        }
        guard try psql("CREATE TABLE contact_record_copy (LIKE contact_record INCLUDING ALL)") == 0 else {
            throw ValidationError("creating the reference table failed")
        }
        let copyStart = ContinuousClock.now
        guard try psql("\\copy contact_record_copy (\(columns)) FROM '\(file.path)'") == 0 else {
            throw ValidationError("psql \\copy failed")
        }
        let copySeconds = (ContinuousClock.now - copyStart).inSeconds
        let copyRate = Double(distinct) / copySeconds
        try? FileManager.default.removeItem(at: file)

        let ratio = ingestRate / copyRate
        print(
            String(
                format: """
                    ingest: %d CTRs (%d contacts) in %.2f s = %.0f rows/s, %.1f MB/s, worker peak RSS %.0f MB
                    psql \\copy reference: %d rows in %.2f s = %.0f rows/s
                    ratio ingest / copy = %.2f
                    RESULT ingest_rows_per_s=%.0f copy_rows_per_s=%.0f ratio=%.2f rss_mb=%.0f
                    """,
                records, distinct, ingestSeconds, ingestRate, megabytesPerSecond, rss, distinct, copySeconds, copyRate,
                ratio, ingestRate, copyRate, ratio, rss
            )
        )
    }
}
