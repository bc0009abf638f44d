import ArgumentParser
import ContactCenter
import Foundation
import Kafka
import Logging
import Roles
import Services
import SwitchboardTesting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `switchboard-bench bench-receiver` (`make bench-receiver`): CTRs per second through a
/// `switchboard receive` process into the embedded Kafka cluster, in Firehose requests of 500
/// CTRs, plain and gzip, next to `kcat -P` producing the same records (same keys, idempotent,
/// `acks=all`) into the same cluster in the same run.
struct BenchReceiverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-receiver",
        abstract: "Benchmark the Firehose receiver against kcat -P (prints RESULT ...)."
    )

    @Option(help: "CTRs per run (sent as requests of --batch CTRs).")
    var records = 200_000

    @Option(help: "CTRs per Firehose request.")
    var batch = 500

    @Option(help: "Requests in flight at once (Firehose delivers in parallel).")
    var concurrency = 4

    /// As many as docker-compose.yml and deploy/ create. librdkafka sends one ProduceRequest per
    /// partition, so a request's records spread over more partitions travel in more, smaller
    /// requests (64 partitions: ~8 CTRs per ProduceRequest of a 500-CTR request).
    @Option(help: "Partitions of the CTR topic (the deployment's 12).")
    var partitions = 12

    @Option(
        name: .customLong("large-mib"),
        help: "MiB of records in one request sent first, to show the memory bound (0: none).")
    var largeMiB = 64

    @Option(help: "The kcat binary.")
    var kcat = "/usr/bin/kcat"

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        var logger = Logger(label: "bench")
        logger.logLevel = .warning

        // 1. Distinct request bodies, reused round robin (untimed).
        let distinctRequests = 20
        var generator = TrafficFixtures(seed: 42, profile: .benchmark)
        var bodies: [[Data]] = []
        var keyed: [(key: String, value: Data)] = []
        var bytes = 0
        for request in 0..<distinctRequests {
            var records: [Data] = []
            for index in 0..<batch {
                let record = generator.contactRecord(index: request * batch + index)
                let value = record.jsonData()
                bytes += value.count
                records.append(value)
                keyed.append((record.contactId, value))
            }
            bodies.append(records)
        }
        let average = bytes / (distinctRequests * batch)
        let requestCount = max(1, records / batch)
        let total = requestCount * batch
        print("\(total) CTRs per run in \(requestCount) requests of \(batch), \(average) bytes each on average")

        // 2. The embedded cluster, and the receiver as its own process.
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        for topic in settings.topics { try cluster.createTopic(topic, partitions: partitions) }
        let key = "bench-access-key-\(UInt64.random(in: 0...UInt64.max))"
        let receiver = try SwitchboardProcess(
            ["receive", "--bootstrap", cluster.bootstrapServers],
            environment: [
                "SWITCHBOARD_FIREHOSE_ACCESS_KEYS": key, "SWITCHBOARD_LOG_LEVEL": "warning",
                "SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS": "0",
            ], log: nil)
        defer { receiver.kill(signal: SIGTERM) }
        let base = receiver.baseURL
        guard await receiver.waitUntilReady() else { throw ValidationError("the receiver did not become ready") }

        // 3. The largest request Firehose sends: 64 MiB of records before base64 (~85 MiB body),
        // into a fresh receiver; its peak RSS shows the body is streamed, not held.
        let idle = receiver.process.peakRSSMegabytes
        if largeMiB > 0 {
            var records: [Data] = []
            var size = 0
            while size < largeMiB << 20 {
                let value = keyed[records.count % keyed.count].value
                records.append(value)
                size += value.count
            }
            let client = FirehoseClient(
                baseURL: base.appendingPathComponent("v1/firehose"), accessKey: key, gzip: false, timeout: 180)
            let body = FirehoseClient.body(requestId: "large", records: records)
            let request = try client.request(stream: .contactRecords, requestId: "large", body: body)
            records = []
            let seconds = try await send([request], count: 1)
            print(
                String(
                    format:
                        "largest request: %.1f MiB of records (%.1f MiB body) in %.2f s; receiver peak RSS %.0f MB (idle %.0f MB)",
                    Double(size) / 1_048_576, Double(body.count) / 1_048_576, seconds,
                    receiver.process.peakRSSMegabytes, idle))
        }

        // 4. Requests of 500 CTRs, plain then gzip; one warm-up pass each is not timed.
        var rates: [String: Double] = [:]
        for gzip in [false, true] {
            let client = FirehoseClient(
                baseURL: base.appendingPathComponent("v1/firehose"), accessKey: key, gzip: gzip, timeout: 180)
            var requests: [FirehoseClient.Request] = []
            for (number, records) in bodies.enumerated() {
                let id = "bench-\(gzip)-\(number)"
                requests.append(
                    try client.request(
                        stream: .contactRecords, requestId: id,
                        body: FirehoseClient.body(requestId: id, records: records)
                    ))
            }
            let wire = requests.reduce(0) { $0 + $1.body.count } / requests.count
            _ = try await send(Array(requests.prefix(concurrency * 2)), count: concurrency * 2)
            let cpuBefore = receiver.process.cpuSeconds
            let seconds = try await send(requests, count: requestCount)
            let cpu = receiver.process.cpuSeconds - cpuBefore
            let rate = Double(total) / seconds
            rates[gzip ? "gzip" : "plain"] = rate
            print(
                String(
                    format:
                        "receiver %@: %d CTRs in %.2f s = %.0f CTRs/s (%.1f MB/s of CTRs, %d bytes per request); receiver CPU %.1f µs per CTR",
                    gzip ? "gzip " : "plain", total, seconds, rate, rate * Double(average) / 1_048_576, wire,
                    cpu * 1_000_000 / Double(total)))
        }
        let rss = receiver.process.peakRSSMegabytes

        // 5. The reference: kcat -P of the same records, the same number of times, same keys.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-kcat.txt")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ValidationError("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        var written = 0
        while written < total {
            var chunk = Data()
            for (contactId, value) in keyed where written < total {
                chunk.append(Data(contactId.utf8))
                chunk.append(0x09)
                chunk.append(value)
                chunk.append(0x0A)
                written += 1
            }
            try handle.write(contentsOf: chunk)
        }
        try handle.close()
        defer { try? FileManager.default.removeItem(at: file) }
        let kcatStart = ContinuousClock.now
        let usage = try await ChildProcess([
            kcat, "-P", "-b", cluster.bootstrapServers, "-t", settings.contactRecordsTopic, "-K", "\t",
            "-X", "enable.idempotence=true", "-X", "acks=all", "-X", "linger.ms=5", "-l", file.path,
        ]).usage()
        let kcatSeconds = (ContinuousClock.now - kcatStart).inSeconds
        guard usage.status == 0 else { throw ValidationError("kcat exited with \(usage.status)") }
        let kcatRate = Double(total) / kcatSeconds
        print(
            String(
                format: "kcat -P: %d CTRs in %.2f s = %.0f CTRs/s; kcat CPU %.1f µs per CTR", total, kcatSeconds,
                kcatRate, usage.cpuSeconds * 1_000_000 / Double(total)))

        let receiverRate = min(rates["plain"] ?? 0, rates["gzip"] ?? 0)
        let ratio = receiverRate / kcatRate
        print(
            String(
                format: """
                    receiver peak RSS %.0f MB; ratio (slower of plain and gzip) / kcat = %.2f
                    RESULT receiver_rps=%.0f kcat_rps=%.0f ratio=%.2f rss_mb=%.0f
                    """, rss, ratio, receiverRate, kcatRate, ratio, rss))
    }

    /// Sends `count` requests, round robin over `requests`, `concurrency` at a time over raw
    /// keep-alive connections (one thread each); every answer must be a 200. Returns the seconds.
    ///
    /// The cheapest possible client, so the load generator takes as little of the machine's CPU
    /// as it can from the server it measures.
    private func send(_ requests: [FirehoseClient.Request], count: Int) async throws -> Double {
        guard let url = requests.first?.url, let port = url.port else { throw ValidationError("no port") }
        let raw = requests.map { request in
            LoopbackConnection.request(
                path: request.url.path, port: port,
                headers: Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                body: request.body)
        }
        let counter = RequestCounter()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        Thread.detachNewThread {
                            do {
                                let connection = try LoopbackConnection(port: port)
                                while true {
                                    let index = counter.next()
                                    guard index < count else { break }
                                    guard connection.send(raw[index % raw.count]) else {
                                        throw ValidationError("the receiver closed the connection")
                                    }
                                    let answer = connection.readResponse(limit: .seconds(300))
                                    guard let response = answer.response, response.head.status == 200 else {
                                        throw ValidationError("the receiver answered: \(answer.text.prefix(1_000))")
                                    }
                                }
                                continuation.resume()
                            } catch {
                                continuation.resume(throwing: error)
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return (ContinuousClock.now - start).inSeconds
    }
}

/// Hands out request numbers to the sending threads.
private final class RequestCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
