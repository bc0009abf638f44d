import ArgumentParser
import ContactCenter
import Foundation
import Kafka
import Logging
import PostgresNIO
import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// `switchboard bench-ingest` (hidden; `make bench-ingest`): end-to-end ingest throughput of
/// realistic CTRs through the embedded Kafka cluster and a separate `switchboard ingest` worker,
/// next to `psql \copy` of the same rows into a table of the same shape, on the same server.
struct BenchIngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-ingest",
        abstract: "Benchmark ingest against PostgreSQL's COPY (prints RESULT ...).",
        shouldDisplay: false
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
            try await adminClient.query("DROP DATABASE IF EXISTS switchboard_bench WITH (FORCE)", logger: logger)
            try await adminClient.query("CREATE DATABASE switchboard_bench", logger: logger)
        }

        // 1. Generate realistic CTRs (untimed).
        var generator = BenchTraffic(seed: 42)
        var messages: [(key: [UInt8], value: [UInt8])] = []
        messages.reserveCapacity(records)
        var newest: [String: (ContactTraceRecord, Int)] = [:]
        var bytes = 0
        for index in 0..<records {
            let isUpdate = index % 20 == 19
            let record = generator.record(index: isUpdate ? index - 7 : index, version: isUpdate ? 1 : 0)
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
        let producer = try KafkaProducer(
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
            let worker = try spawnProcess(
                [CommandLine.arguments[0], "ingest", "--bootstrap", cluster.bootstrapServers, "--http-port", "18099"],
                environment: environment
            )
            defer {
                kill(worker, SIGTERM)
                _ = waitForProcess(worker)
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
            let seconds = (end - startTime).seconds
            return (Double(records - first) / seconds, seconds, peakRSSMegabytes(of: worker))
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
            waitForProcess(
                try spawnProcess(
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
        let copySeconds = (ContinuousClock.now - copyStart).seconds
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

/// Seeded, realistic CTRs for the benchmark (varied queues, agents, attributes; ~2.5–3 KB each).
struct BenchTraffic {
    private var state: UInt64
    static let base = UTCTimestamp(millisecondsSince1970: 1_795_000_000_000)

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: UInt64) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % bound)
    }

    mutating func record(index: Int, version: Int) -> ContactTraceRecord {
        let start = Self.base.adding(seconds: Int64(index) * 3)
        let enqueued = start.adding(seconds: 25)
        let wait = next(90)
        let answered = next(6) != 0
        let talk = 60 + next(500)
        let hold = next(40)
        let acw = 10 + next(90)
        let connected = enqueued.adding(seconds: Int64(wait))
        let end = answered ? connected.adding(seconds: Int64(talk + hold)) : connected
        let store = index % 23
        return ContactTraceRecord(
            contactId: String(format: "%08x-%04x-4%03x-8000-%012x", index, index % 65_536, store, index),
            initialContactId: nil,
            initiationTimestamp: start,
            connectedToSystemTimestamp: start.adding(seconds: 1),
            disconnectTimestamp: end,
            disconnectReason: answered ? "AGENT_DISCONNECT" : "CUSTOMER_DISCONNECT",
            lastUpdateTimestamp: end.adding(seconds: 90 + Int64(version) * 86_400),
            customerEndpoint: .init(address: String(format: "+8190%08d", index % 100_000_000)),
            systemEndpoint: .init(address: String(format: "+81312345%03d", store)),
            attributes: [
                "storeId": "store-\(store)", "language": next(5) == 0 ? "en" : "ja",
                "partySize": String(1 + next(8)), "intent": ["reservation", "takeout", "question"][next(3)],
                "version": String(version),
            ],
            queue: .init(
                arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-\(store % 5)",
                name: ["Reservations", "Takeout", "English", "Groups", "Complaints"][store % 5],
                enqueueTimestamp: enqueued,
                dequeueTimestamp: connected,
                duration: wait
            ),
            agent: answered
                ? .init(
                    arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a-\(next(40))",
                    username: "agent\(next(40))",
                    connectedToAgentTimestamp: connected,
                    agentInteractionDuration: talk,
                    afterContactWorkStartTimestamp: end,
                    afterContactWorkEndTimestamp: end.adding(seconds: Int64(acw)),
                    afterContactWorkDuration: acw,
                    customerHoldDuration: hold,
                    numberOfHolds: hold > 0 ? 1 : 0,
                    longestHoldDuration: hold,
                    routingProfile: .init(arn: nil, name: "Basic")
                ) : nil
        )
    }
}

/// Starts a process with `posix_spawn` (output inherited).
func spawnProcess(_ arguments: [String], environment: [String: String]) throws -> pid_t {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], nil, nil, argv, envp)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    return pid
}

/// Waits for a child process; its exit status, or 128 + the signal that ended it.
func waitForProcess(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}

/// The peak resident set size of a process, from `/proc/<pid>/status` (`VmHWM`).
func peakRSSMegabytes(of pid: pid_t) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes / 1024
}
