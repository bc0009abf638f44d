import ArgumentParser
import ContactCenter
import Foundation
import Kafka
import Logging
import PostgresNIO
import Primitives
import Roles
@_spi(Bench) import Storage
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

    @Option(help: "Alternated rounds of the stream, L and the stream without the upkeep (the fastest of each kept).")
    var rounds = 3

    /// The embedded broker serves one message set per partition and fetch, whatever the
    /// consumer's `max.partition.fetch.bytes`: with the producer's default batching each set
    /// holds days of the generated week, so a stream transaction spans most of it. Small sets
    /// give the time-local transactions a real broker gives a consumer with a small
    /// per-partition fetch (and make the mock fetch more slowly).
    @Option(help: "Records per producer message set (librdkafka batch.num.messages); default: the producer's.")
    var messageSetRecords: Int?

    @Option(help: "Brokers of the embedded cluster (partitions spread over them).")
    var brokers = 1

    @Flag(help: "Stop after the consumer that only counts: the embedded broker's pace alone.")
    var onlyConsume = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        if let messageSetRecords, messageSetRecords < 1 {
            throw ValidationError("--message-set-records must be at least 1")
        }
    }

    /// The benchmark's CTRs, in order (`bench-decode` times the worker on the same ones): `count`
    /// records of the benchmark profile, every 20th a re-emitted update (version 1) of the
    /// contact seven before it. They start on the fixtures' weekday a week or more ago, so that
    /// the worker treats them as recent traffic whatever the date.
    static func forEachCTR(_ count: Int, _ body: (_ index: Int, _ record: ContactTraceRecord) -> Void) {
        var generator = TrafficFixtures(
            seed: 42, profile: .benchmark, base: TrafficFixtures.recentBase(now: UTCTimestamp(Date())))
        for index in 0..<count {
            let isUpdate = index % 20 == 19
            body(index, generator.contactRecord(index: isUpdate ? index - 7 : index, version: isUpdate ? 1 : 0))
        }
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        // The first stream's database (created by timeStream) also holds L's reference table.
        let benchURL = try Self.url(of: "switchboard_bench", settings: settings)

        // 1. Generate realistic CTRs (untimed).
        var messages: [(key: [UInt8], value: [UInt8])] = []
        messages.reserveCapacity(records)
        var newest: [String: (ContactTraceRecord, Int)] = [:]
        var bytes = 0
        // The same records, in the same order, as an export file for `switchboard import`.
        var export: [UInt8] = []
        Self.forEachCTR(records) { index, record in
            let value = Array(record.jsonData())
            bytes += value.count
            messages.append((Array(record.contactId.utf8), value))
            export += value
            export.append(UInt8(ascii: "\n"))
            newest[record.contactId] = (record, index)
        }
        let distinct = newest.count
        let exportFile = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-import.json")
        try Data(export).write(to: exportFile)
        export = []
        defer { try? FileManager.default.removeItem(at: exportFile) }
        print("generated \(records) CTRs (\(distinct) contacts), \(bytes / records) bytes on average")

        // 2. Produce them to the embedded cluster (untimed).
        let cluster = try EmbeddedKafkaCluster(brokers: brokers, logger: logger)
        try cluster.createTopic(settings.contactRecordsTopic, partitions: partitions)
        try cluster.createTopic(settings.agentEventsTopic, partitions: 4)
        try cluster.createTopic(settings.contactEventsTopic, partitions: 4)
        let producer = try BackgroundProducer(
            configuration: KafkaProducerConfiguration(
                common: KafkaConfiguration(
                    bootstrapServers: cluster.bootstrapServers,
                    properties: messageSetRecords.map { ["batch.num.messages": String($0)] } ?? [:])),
            logger: logger
        )
        for message in messages {
            try await producer.enqueue(topic: settings.contactRecordsTopic, key: message.key, value: message.value)
        }
        try await producer.flush(timeout: .seconds(120))
        await producer.close()
        messages = []

        // 2b. The embedded broker's own pace: a consumer with the worker's Kafka settings and
        // batch size that only counts the records (no decoding, no database).
        let consume = try await Self.timeCountingConsumer(
            bootstrap: cluster.bootstrapServers, records: records, settings: settings, logger: logger)
        print(
            String(
                format:
                    "a consumer that only counts (the worker's Kafka settings): %d records in %.2f s = %.0f records/s, %.2f cores busy in this process (the consumer and the broker)",
                records, consume.seconds, consume.rate, consume.cores))
        if onlyConsume {
            print(String(format: "RESULT consume_rows_per_s=%.0f consume_cores_busy=%.2f", consume.rate, consume.cores))
            return
        }

        // 3. and 4. The stream (a separate worker process into a fresh schema, timed from the first
        // committed batch to the last) and L, the limit (psql \copy of the same newest rows into
        // a table of the same shape from two connections at once, half the rows each): alternated,
        // `rounds` times each (3 by default), the fastest of each kept. On a shared 2-core machine
        // one run of either can lose a quarter of its speed to a neighbour, and the ratio of one run
        // of each measured minutes apart mostly measures that; even L alone can move by 1.5× within
        // one run.
        let ordered = newest.values.sorted { $0.1 < $1.1 }
        newest = [:]
        let halves = [0, 1].map { half in
            FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-copy-\(half).tsv")
        }
        let whole = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-copy.tsv")
        defer { for file in halves + [whole] { try? FileManager.default.removeItem(at: file) } }
        var lines = ordered.map { ContactRecordColumns.copyTextLine($0.0, partition: 0, offset: Int64($0.1)) }
        try (lines.joined(separator: "\n") + "\n").write(to: whole, atomically: true, encoding: .utf8)
        for (half, file) in halves.enumerated() {
            let part = lines.enumerated().filter { $0.offset % 2 == half }.map(\.element)
            try (part.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        lines = []
        let columns = ContactRecordColumns.columnNames.joined(separator: ", ")
        let psql = { (sql: String) throws -> ChildProcess in
            try ChildProcess(["/usr/bin/psql", benchURL, "-v", "ON_ERROR_STOP=1", "-qc", sql])
        }
        // The stream without the rollups' upkeep too (no-op functions, trigger dropped), in the
        // same rounds: what the rollups cost the stream (`rollup_ratio`, which `make bench-analyst`
        // reports as ingest_ratio_change). Each run has a schema and consumer group of its own.
        var streams: [StreamRun] = []
        var bareStreams: [StreamRun] = []
        var limitSeconds: [Double] = []
        // L's CPU seconds (both psql processes and PostgreSQL) per round.
        var limitCPU: [Double] = []
        // The whole machine's busy cores during L, per round.
        var limitMachineCores: [Double] = []
        for round in 0..<rounds {
            streams.append(
                try await timeStream(
                    into: round == 0 ? "switchboard_bench" : "switchboard_bench_\(round + 1)",
                    group: round == 0 ? "bench" : "bench-\(round + 1)", cluster: cluster, settings: settings,
                    logger: logger))
            if round == 0 {
                guard try await psql("CREATE TABLE contact_record_copy (LIKE contact_record INCLUDING ALL)").exit() == 0
                else {
                    throw ValidationError("creating the reference table failed")
                }
            }
            guard try await psql("TRUNCATE contact_record_copy").exit() == 0 else {
                throw ValidationError("emptying the reference table failed")
            }
            try await Self.prepare(benchURL, withoutRollups: false)
            let copy2Start = ContinuousClock.now
            let postgresAtStart = ChildProcess.cpuSeconds(ofProcessesNamed: "postgres")
            let machineAtStart = ChildProcess.machineBusySeconds()
            let copies = try halves.map { try psql("\\copy contact_record_copy (\(columns)) FROM '\($0.path)'") }
            var psqlSeconds = 0.0
            for copy in copies {
                let usage = await copy.usage()
                guard usage.status == 0 else { throw ValidationError("psql \\copy failed") }
                psqlSeconds += usage.cpuSeconds
            }
            limitSeconds.append((ContinuousClock.now - copy2Start).inSeconds)
            limitMachineCores.append((ChildProcess.machineBusySeconds() - machineAtStart) / limitSeconds.last!)
            // The two sessions' backends end once psql has gone; their CPU joins the postmaster's
            // reaped children's when it has waited for them.
            try await Task.sleep(for: .milliseconds(500))
            limitCPU.append(psqlSeconds + ChildProcess.cpuSeconds(ofProcessesNamed: "postgres") - postgresAtStart)
            bareStreams.append(
                try await timeStream(
                    into: "switchboard_bench_bare_\(round + 1)", group: "bench-bare-\(round + 1)", cluster: cluster,
                    settings: settings, logger: logger, withoutRollups: true))
        }
        let stream = streams.max { $0.rate < $1.rate }!
        let (ingestRate, ingestSeconds, rss, cpu) = (stream.rate, stream.seconds, stream.rss, stream.cpu)
        let megabytesPerSecond = ingestRate * Double(bytes) / Double(records) / 1_048_576
        let copy2Seconds = limitSeconds.min()!
        let copy2Rate = Double(distinct) / copy2Seconds
        // CPU per 1,000 rows, the stream's (worker and PostgreSQL; the embedded broker stands in
        // for Kafka, which runs elsewhere) over L's. Per round, over the L measured right after the
        // stream, on the machine as it was then; the median of the rounds. The lowest of each
        // side would pair an L from one moment with a stream from another: L's CPU per row moves
        // by a quarter between rounds minutes apart, more than the stream's.
        let streamCPUPerThousand = streams.map { $0.perThousandRows($0.cpu.worker + $0.cpu.postgres) }
        let limitCPUPerThousand = limitCPU.map { $0 / Double(distinct) * 1_000 }
        let cpuRatiosL = zip(streamCPUPerThousand, limitCPUPerThousand).map { $0 / $1 }
        let cpuRatioL = Self.median(cpuRatiosL)
        let bareStream = bareStreams.max { $0.rate < $1.rate }!
        let rollupRatio = stream.rate / bareStream.rate
        print(
            "streams: \(streams.map { Int($0.rate) }) rows/s, L: \(limitSeconds.map { Int(Double(distinct) / $0) }) rows/s, streams without the rollups' upkeep: \(bareStreams.map { Int($0.rate) }) rows/s (alternated)"
        )
        print(
            "CPU seconds per 1,000 rows, per round: streams (worker and PostgreSQL) \(streamCPUPerThousand.map(Self.threeDecimals)), L (psql and PostgreSQL) \(limitCPUPerThousand.map(Self.threeDecimals)); stream / L \(cpuRatiosL.map(Self.twoDecimals)) (cpu_ratio_l: their median)"
        )
        print(
            "the whole machine's busy cores: during the streams \(streams.map { Self.twoDecimals($0.cpu.machine / $0.seconds) }), during L \(limitMachineCores.map(Self.twoDecimals))"
        )
        for (name, runs) in [("streams", streams), ("streams without the upkeep", bareStreams)] {
            let shares = StreamRun.stageNames.map { stage in
                "\(stage) \(runs.map { Self.twoDecimals($0.share(of: stage)) })"
            }
            print("the worker's stage seconds per second of the \(name): \(shares.joined(separator: ", "))")
        }
        print(
            "transactions writing the \(distinct) contacts: streams \(streams.map(\.transactions)), without the upkeep \(bareStreams.map(\.transactions)); queue buckets per transaction (median): \(streams.map(\.bucketsPerTransaction))"
        )
        print(
            String(
                format:
                    "CPU seconds per 1,000 rows of the fastest stream without the rollups' upkeep: worker %.3f, PostgreSQL %.3f",
                bareStream.perThousandRows(bareStream.cpu.worker), bareStream.perThousandRows(bareStream.cpu.postgres)))

        // The one-connection reference.
        guard try await psql("TRUNCATE contact_record_copy; CHECKPOINT").exit() == 0 else {
            throw ValidationError("emptying the reference table failed")
        }
        let copyStart = ContinuousClock.now
        guard try await psql("\\copy contact_record_copy (\(columns)) FROM '\(whole.path)'").exit() == 0 else {
            throw ValidationError("psql \\copy failed")
        }
        let copySeconds = (ContinuousClock.now - copyStart).inSeconds
        let copyRate = Double(distinct) / copySeconds

        // 5. `switchboard import` of the same records (all versions, in order) into a fresh schema,
        // and into one whose rollup upkeep is switched off: what the rollups cost the write path,
        // measured in the same run (the import shares the stream's writer). Alternated, twice
        // each, the faster of each kept: on a shared 2-core machine one run of either can lose a
        // quarter of its speed to a neighbour.
        var runs: [ImportRun] = []
        var bareRuns: [ImportRun] = []
        for _ in 0..<2 {
            runs.append(
                try await timeImport(exportFile, into: "switchboard_bench_import", settings: settings, logger: logger))
            bareRuns.append(
                try await timeImport(
                    exportFile, into: "switchboard_bench_norollup", settings: settings, logger: logger,
                    withoutRollups: true))
        }
        // CPU seconds (the import and PostgreSQL) per 1,000 records: less sensitive than rows/s to
        // a neighbour slowing the machine during one of the runs.
        let bestWith = runs.min { $0.cpuPerThousand < $1.cpuPerThousand }!
        let bestWithout = bareRuns.min { $0.cpuPerThousand < $1.cpuPerThousand }!
        let rollupCPURatio = bestWithout.cpuPerThousand / bestWith.cpuPerThousand
        print(
            "imports with the rollups' upkeep: \(runs.map { Int($0.rate) }) rows/s, without: \(bareRuns.map { Int($0.rate) }) rows/s"
        )
        print(
            String(
                format:
                    "CPU seconds per 1,000 records (import + PostgreSQL), the lower of two: with the upkeep %.3f (PostgreSQL %.3f), without %.3f (PostgreSQL %.3f); without / with = %.2f",
                bestWith.cpuPerThousand, bestWith.postgresPerThousand,
                bestWithout.cpuPerThousand, bestWithout.postgresPerThousand, rollupCPURatio))
        let imported = runs.max { $0.rate < $1.rate }!
        let bare = bareRuns.max { $0.rate < $1.rate }!
        let importRate = imported.rate
        let importRSS = imported.rss
        let importSeconds = imported.seconds
        let importRollupRatio = imported.rate / bare.rate

        let ratio = ingestRate / copyRate
        let ratioL = ingestRate / copy2Rate
        let ratioImport = importRate / ingestRate
        let stageShares = StreamRun.stageNames.map { stream.share(of: $0) }
        print(
            String(
                format: """
                    ingest: %d CTRs (%d contacts) in %.2f s = %.0f rows/s, %.1f MB/s, worker peak RSS %.0f MB
                    CPU seconds per 1,000 rows while ingesting: worker %.3f, broker (this process) %.3f, PostgreSQL %.3f, total %.3f (%.2f cores busy of 2; the whole machine, kernel included: %.2f)
                    psql \\copy reference, one connection: %d rows in %.2f s = %.0f rows/s
                    psql \\copy reference, two connections at once (L): %d rows in %.2f s = %.0f rows/s, CPU seconds per 1,000 rows (psql and PostgreSQL, the median round) %.3f
                    CPU per row, stream (worker and PostgreSQL) / L = %.2f (the median of the rounds)
                    switchboard import of the same %d records: %.2f s = %.0f rows/s, peak RSS %.0f MB, %.1f CPU s
                    the same import without the rollups' upkeep: %.2f s = %.0f rows/s, %.1f CPU s (each the faster of two, alternated)
                    ratio ingest / copy = %.2f, ingest / L = %.2f, import / ingest = %.2f, stream with / without rollups = %.2f, import with / without rollups = %.2f
                    RESULT ingest_rows_per_s=%.0f copy_rows_per_s=%.0f ratio=%.2f rss_mb=%.0f copy2_rows_per_s=%.0f ratio_l=%.2f import_rows_per_s=%.0f ratio_import=%.2f import_rss_mb=%.0f rollup_ratio=%.2f import_rollup_ratio=%.2f rollup_cpu_ratio=%.2f cpu_ratio_l=%.2f cores_busy=%.2f machine_cores_busy=%.2f ratio_stream_import=%.2f consume_rows_per_s=%.0f stage_poll=%.2f stage_decode=%.2f stage_queue=%.2f stage_write=%.2f
                    """,
                records, distinct, ingestSeconds, ingestRate, megabytesPerSecond, rss,
                stream.perThousandRows(cpu.worker), stream.perThousandRows(cpu.broker),
                stream.perThousandRows(cpu.postgres), stream.perThousandRows(cpu.worker + cpu.broker + cpu.postgres),
                (cpu.worker + cpu.broker + cpu.postgres) / ingestSeconds, cpu.machine / ingestSeconds,
                distinct, copySeconds, copyRate, distinct, copy2Seconds, copy2Rate,
                Self.median(limitCPUPerThousand), cpuRatioL,
                records, importSeconds, importRate, importRSS, imported.cpuSeconds,
                bare.seconds, bare.rate, bare.cpuSeconds,
                ratio, ratioL, ratioImport, rollupRatio, importRollupRatio,
                ingestRate, copyRate, ratio, rss, copy2Rate, ratioL, importRate, ratioImport,
                importRSS, rollupRatio, importRollupRatio, rollupCPURatio, cpuRatioL,
                (cpu.worker + cpu.broker + cpu.postgres) / ingestSeconds, cpu.machine / ingestSeconds,
                ingestRate / importRate, consume.rate, stageShares[0], stageShares[1], stageShares[2], stageShares[3]
            )
        )
    }
    /// Times the stream: a separate `switchboard ingest` worker of consumer group `group` reads
    /// the whole CTR topic into a fresh schema in database `name`, from its first committed batch
    /// to the last; `withoutRollups` switches the rollups' upkeep off first (``disableRollups``).
    func timeStream(
        into name: String, group: String, cluster: EmbeddedKafkaCluster, settings: Settings, logger: Logger,
        withoutRollups: Bool = false
    ) async throws -> StreamRun {
        let database = try await Self.freshDatabase(name, settings: settings, logger: logger)
        let url = try Self.url(of: name, settings: settings)
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            await client.start(in: &tasks)
            defer { tasks.cancelAll() }
            try await Migrator(client: client, logger: logger)
                .migrateSwitchboardSchema()
            try await Self.prepare(url, withoutRollups: withoutRollups)
            let worker = try SwitchboardProcess(
                ["ingest", "--bootstrap", cluster.bootstrapServers],
                environment: [
                    "SWITCHBOARD_DATABASE_URL": url, "SWITCHBOARD_INGEST_GROUP": group,
                    "SWITCHBOARD_LOG_LEVEL": "warning",
                ], httpPort: 18099, log: nil)
            defer { worker.kill(signal: SIGTERM) }
            var start: (ContinuousClock.Instant, Int)? = nil
            var end = ContinuousClock.now
            // CPU seconds of the worker, this process (the embedded broker) and PostgreSQL's
            // processes over the timed window.
            // And the machine's busy CPU time (the kernel's too: its writeback of the WAL and the
            // tables' pages runs in threads of its own).
            var cpuAtStart = (worker: 0.0, broker: 0.0, postgres: 0.0, machine: 0.0)
            var cpu = (worker: 0.0, broker: 0.0, postgres: 0.0, machine: 0.0)
            // The worker's `switchboard_ingest_stage_seconds_total` at the window's start, and
            // their growth over it.
            var stagesAtStart: [String: Double] = [:]
            var stages: [String: Double] = [:]
            func cpuNow() -> (worker: Double, broker: Double, postgres: Double, machine: Double) {
                (
                    worker.process.cpuSeconds, ChildProcess.cpuSeconds(of: getpid()),
                    ChildProcess.cpuSeconds(ofProcessesNamed: "postgres"), ChildProcess.machineBusySeconds()
                )
            }
            let deadline = ContinuousClock.now + .seconds(900)
            while ContinuousClock.now < deadline {
                let rows = try await client.query(
                    "SELECT coalesce(sum(next_offset), 0)::bigint FROM consumer_offset WHERE consumer_group = \(group) AND next_offset > 0",
                    logger: logger
                )
                var committed = 0
                for try await value in rows.decode(Int.self) { committed = value }
                let now = ContinuousClock.now
                if start == nil && committed > 0 {
                    start = (now, committed)
                    cpuAtStart = cpuNow()
                    stagesAtStart = await worker.metricValues("switchboard_ingest_stage_seconds_total", by: "stage")
                }
                if committed >= records {
                    end = now
                    let cpuAtEnd = cpuNow()
                    let stagesAtEnd = await worker.metricValues("switchboard_ingest_stage_seconds_total", by: "stage")
                    stages = stagesAtEnd.merging(stagesAtStart) { $0 - $1 }
                    cpu = (
                        cpuAtEnd.worker - cpuAtStart.worker, cpuAtEnd.broker - cpuAtStart.broker,
                        cpuAtEnd.postgres - cpuAtStart.postgres, cpuAtEnd.machine - cpuAtStart.machine
                    )
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            guard let (startTime, first) = start else { throw ValidationError("the worker ingested nothing") }
            let seconds = (end - startTime).inSeconds
            // The transactions that wrote the rows (each row keeps the id of the last one that
            // wrote it; a later version replaces its row, so this can only undercount).
            // And the median number of queue buckets (15-minute intervals of a queue) a transaction's
            // rows fall in: what the rollups' upkeep rewrites per transaction.
            var transactions = 0
            var buckets = 0
            for try await (count, median) in try await client.query(
                """
                SELECT count(*)::bigint, coalesce(percentile_disc(0.5) WITHIN GROUP (ORDER BY n), 0)::bigint
                FROM (
                    -- The upkeep's bucket of a queued contact (contact_outcome's queue, rollup_interval).
                    SELECT count(DISTINCT (coalesce(queue_arn, queue_name), rollup_interval(enqueue_ts)))
                        FILTER (WHERE enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL)
                    FROM contact_record GROUP BY xmin::text
                ) AS t(n)
                """, logger: logger
            ).decode((Int, Int).self) {
                (transactions, buckets) = (count, median)
            }
            return StreamRun(
                rate: Double(records - first) / seconds, seconds: seconds,
                rss: worker.process.peakRSSMegabytes, cpu: cpu, transactions: transactions,
                bucketsPerTransaction: buckets, stages: stages)
        }
    }

    /// Times a consumer of a group of its own with the ingest worker's Kafka settings and batch
    /// size, which reads the whole CTR topic and only counts the records: from its first batch
    /// to the last, like the stream.
    static func timeCountingConsumer(bootstrap: String, records: Int, settings: Settings, logger: Logger)
        async throws -> (rate: Double, seconds: Double, cores: Double)
    {
        let consumer = try await KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                common: settings.kafka(
                    bootstrap: bootstrap, clientID: "switchboard-bench-count",
                    defaults: IngestService.consumerProperties),
                groupID: "bench-count", autoOffsetReset: "earliest"),
            logger: logger)
        try await consumer.subscribe(topics: [settings.contactRecordsTopic])
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(600)
        var count = 0
        var start: (instant: ContinuousClock.Instant, count: Int)? = nil
        var cpuAtStart = 0.0
        while count < records, clock.now < deadline {
            let batch = try await consumer.poll(
                maxRecords: settings.ingestBatchRecords, maxWait: .milliseconds(settings.ingestBatchMilliseconds))
            count += batch.records.count
            if start == nil, count > 0 {
                start = (clock.now, count)
                cpuAtStart = ChildProcess.cpuSeconds(of: getpid())
            }
        }
        let end = clock.now
        let cpu = ChildProcess.cpuSeconds(of: getpid()) - cpuAtStart
        try await consumer.close()
        guard let start, count >= records else {
            throw ValidationError("the counting consumer read \(count) of \(records) records")
        }
        let seconds = (end - start.instant).inSeconds
        return (Double(records - start.count) / seconds, seconds, cpu / seconds)
    }

    /// The middle of `values` (the upper middle of an even count); `values` is not empty.
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func twoDecimals(_ value: Double) -> String { String(format: "%.2f", value) }
    static func threeDecimals(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Drops and creates database `name` on the bench's server; returns its configuration.
    static func freshDatabase(_ name: String, settings: Settings, logger: Logger) async throws
        -> DatabaseConfiguration
    {
        var database = try settings.databaseConfiguration()
        // A client runs once: a new one for each database.
        let admin = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            await admin.start(in: &tasks)
            defer { tasks.cancelAll() }
            try await TestDatabase.recreate(name, admin: admin)
        }
        database.database = name
        return database
    }

    /// The URL of database `name` on the bench's server (for psql and the child processes).
    static func url(of name: String, settings: Settings) throws -> String {
        let database = try settings.databaseConfiguration()
        return "postgres://\(database.username)@\(database.host):\(database.port)/\(name)"
    }

    /// Readies a migrated database for a timed run: vacuums every database first (``settle(_:)``),
    /// switches the rollups' upkeep off when asked (``disableRollups``), and checkpoints either
    /// way, so that no run flushes the previous one's WAL (the runs alternate: a checkpoint every
    /// other run would always fall on the same variant).
    static func prepare(_ url: String, withoutRollups: Bool) async throws {
        try await settle(url)
        let sql = withoutRollups ? disableRollups : "CHECKPOINT"
        let psql = try ChildProcess(["/usr/bin/psql", url, "-v", "ON_ERROR_STOP=1", "-qc", sql])
        guard await psql.exit() == 0 else {
            throw ValidationError("preparing the database for a timed run failed (\(sql))")
        }
    }

    /// Vacuums and analyzes every database of the bench's server (untimed), so that no timed run
    /// hosts the autovacuum of the runs before it. Without it, the autovacuum of each stream's
    /// 200,000 rows (and of L's table) starts about a minute later, inside a later timed window,
    /// and slows whichever variant runs then: the ratios between variants would measure it.
    static func settle(_ url: String) async throws {
        let vacuum = try ChildProcess(["/usr/bin/vacuumdb", "--all", "--analyze", "--quiet", "--maintenance-db", url])
        guard await vacuum.exit() == 0 else {
            throw ValidationError("vacuumdb --all before a timed run failed")
        }
    }

    /// Replaces the rollups' upkeep functions with no-ops and drops their trigger, then checkpoints
    /// (the upsert still fills the stash of written rows, which commit empties).
    static let disableRollups = """
        CREATE OR REPLACE FUNCTION rollup_apply_written() RETURNS void LANGUAGE sql AS $$ SELECT $$;
        CREATE OR REPLACE FUNCTION rollup_apply_agents(p_agents text[], p_first timestamptz[], p_last timestamptz[])
            RETURNS void LANGUAGE sql AS $$ SELECT $$;
        DROP TRIGGER contact_record_rollup_replaced ON contact_record;
        CHECKPOINT;
        """

    /// Times `switchboard import` of `file` into a fresh database `name`; `withoutRollups` replaces
    /// the rollups' upkeep functions with no-ops and drops their trigger after migrating.
    func timeImport(
        _ file: URL, into name: String, settings: Settings, logger: Logger, withoutRollups: Bool = false
    ) async throws -> ImportRun {
        _ = try await Self.freshDatabase(name, settings: settings, logger: logger)
        let url = try Self.url(of: name, settings: settings)
        var environment = ProcessInfo.processInfo.environment
        environment["SWITCHBOARD_DATABASE_URL"] = url
        environment["SWITCHBOARD_LOG_LEVEL"] = "warning"
        guard try await ChildProcess([SwitchboardProcess.binary, "migrate"], environment: environment).exit() == 0
        else {
            throw ValidationError("switchboard migrate failed")
        }
        try await Self.prepare(url, withoutRollups: withoutRollups)
        let start = ContinuousClock.now
        let postgresAtStart = ChildProcess.cpuSeconds(ofProcessesNamed: "postgres")
        let importer = try ChildProcess([SwitchboardProcess.binary, "import", file.path], environment: environment)
        // The peak RSS sampled while it runs (VmHWM, reset by exec): wait4's maximum would count
        // this process's memory, which the child shared between fork and exec.
        let sampling = Task {
            var peak = 0.0
            while !Task.isCancelled {
                peak = max(peak, importer.peakRSSMegabytes)
                try? await Task.sleep(for: .milliseconds(100))
            }
            return peak
        }
        let usage = await importer.usage()
        let seconds = (ContinuousClock.now - start).inSeconds
        let postgresSeconds = ChildProcess.cpuSeconds(ofProcessesNamed: "postgres") - postgresAtStart
        sampling.cancel()
        let rss = await sampling.value
        guard usage.status == 0 else { throw ValidationError("switchboard import failed (\(usage.status))") }
        return ImportRun(
            records: records, seconds: seconds, rss: rss, cpuSeconds: usage.cpuSeconds, postgresSeconds: postgresSeconds
        )
    }
}

/// One timed stream ingest of the bench's topic.
struct StreamRun {
    var rate: Double
    var seconds: Double
    /// Peak RSS of the worker, MB.
    var rss: Double
    /// CPU seconds over the timed window of the worker, this process (the embedded broker) and
    /// PostgreSQL, and the busy CPU seconds of the whole machine.
    var cpu: (worker: Double, broker: Double, postgres: Double, machine: Double)
    /// The transactions whose rows are in `contact_record` at the end.
    var transactions: Int
    /// The median number of queue buckets a transaction's rows fall in.
    var bucketsPerTransaction: Int
    /// The worker's seconds per stage over the timed window (`switchboard_ingest_stage_seconds_total`).
    var stages: [String: Double]

    /// The stages the worker reports, in the order the bench prints them.
    static let stageNames = ["poll", "decode", "queue", "write"]

    /// Seconds of `stage` per second of the timed window: the pump's share for `poll` and
    /// `queue`; summed over the parts decoded at once and over the lanes for `decode` and `write`.
    func share(of stage: String) -> Double { (stages[stage] ?? 0) / seconds }

    /// `seconds` of CPU per 1,000 rows of the timed window.
    func perThousandRows(_ seconds: Double) -> Double { seconds / (rate * self.seconds / 1_000) }
}

/// One timed `switchboard import` of the bench's records.
struct ImportRun {
    var records: Int
    var seconds: Double
    /// Peak RSS of the import, MB.
    var rss: Double
    /// CPU seconds of the import process and of PostgreSQL (exited backends included).
    var cpuSeconds: Double
    var postgresSeconds: Double

    var rate: Double { Double(records) / seconds }
    /// CPU seconds (the import and PostgreSQL) per 1,000 records: less sensitive than rows/s to a
    /// neighbour slowing the machine during one of the runs.
    var cpuPerThousand: Double { (cpuSeconds + postgresSeconds) / Double(records) * 1_000 }
    var postgresPerThousand: Double { postgresSeconds / Double(records) * 1_000 }
}
