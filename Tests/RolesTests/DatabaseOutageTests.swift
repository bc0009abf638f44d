import ContactCenter
import Foundation
import Kafka
import PostgresNIO
import Storage
import SwitchboardTesting
import Synchronization
import Testing

extension WorkerProcessSuites {
    /// A worker process keeps ingesting through PostgreSQL outages: it reports the outage, retries,
    /// writes its next batch within ``recoveryBound`` of the database accepting connections again,
    /// and writes every record exactly once.
    @Suite("PostgreSQL outages", .serialized, .enabled(if: TestDatabase.enabled))
    struct DatabaseOutageTests {
        /// The longest time from PostgreSQL accepting connections again (`pg_ctl start -w`
        /// returned) to the worker's next written batch, every batch that waited included.
        ///
        /// The pipeline's own bound is its retry backoff cap plus one connection and one batch
        /// write (about 2 s here, docs/ingest.md "Database outages"); the rest is margin for a
        /// 2-core CI machine that compiles and runs other suites meanwhile. A worker that stalls
        /// stays silent for good, so a bound of this size still tells a recovery from a stall.
        static let recoveryBound: Duration = .seconds(15)

        /// One way the database goes away.
        struct Outage: Sendable, CustomTestStringConvertible {
            var name: String
            /// How long each stop lasts.
            var stops: [Duration]
            /// How long the server runs between two stops.
            var gap: Duration = .zero
            /// Whether the (first) stop comes while write transactions of the worker are open:
            /// a session locks `contact_record`, the worker's batch waits inside its transaction,
            /// and the server stops under it.
            var whileWriting = false

            var testDescription: String { name }
        }

        static let outages = [
            Outage(name: "stopped for 10 s", stops: [.seconds(10)]),
            Outage(
                name: "stopped for 10 s while write transactions are open", stops: [.seconds(10)],
                whileWriting: true),
            Outage(name: "stopped for 60 s", stops: [.seconds(60)]),
            Outage(
                name: "flapping: 5 × (3 s stopped, 3 s running)", stops: Array(repeating: .seconds(3), count: 5),
                gap: .seconds(3)),
        ]

        @Test(
            "PostgreSQL goes away mid-stream: not ready, retries, writes again within the bound, none lost or twice",
            arguments: outages
        )
        func outage(_ outage: Outage) async throws {
            let postgres = try PrivatePostgres(name: "outage", database: "outage")
            #expect(try await postgres.start(), "a private PostgreSQL server started")
            defer { postgres.stopBlocking() }
            #expect(try await postgres.psql("CREATE DATABASE outage", database: "postgres"))
            // The schema's owner migrates; the worker only checks the schema at start.
            let migrated = try await ChildProcess.run(
                [SwitchboardProcess.binary, "migrate"],
                environment: ProcessInfo.processInfo.environment.merging(["SWITCHBOARD_DATABASE_URL": postgres.url]) {
                    $1
                })
            #expect(migrated.status == 0, "migrate:\n\(migrated.output)")

            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            for topic in IngestTopics().all { try cluster.createTopic(topic, partitions: 4) }
            let traffic = try OutageTraffic(cluster: cluster)
            let worker = try SwitchboardProcess.worker(
                bootstrap: cluster.bootstrapServers, databaseURL: postgres.url, group: "outage", name: "outage")
            defer { worker.kill() }
            // A steady stream (300 records every 0.8 s) while the test takes the database away.
            let paced = Task { try await traffic.producePaced(batches: 16, of: 300, every: .milliseconds(800)) }

            #expect(await worker.waitUntilReady())
            // Mid-stream: the worker owns its partitions and writes (a claim is a database write
            // too, and one the outage would only delay).
            let writing = await eventually(within: .seconds(60)) {
                (await worker.metric(OutageTraffic.sourceRecords) ?? 0) > 0
            }
            #expect(writing, "the worker writes before the outage")
            try await Task.sleep(for: .seconds(1))
            if outage.whileWriting {
                try await Self.holdWritesInsideTransactions(postgres, traffic: traffic)
            }

            let clock = ContinuousClock()
            var recovery: Duration?
            var earlier: [Duration?] = []
            for (index, stop) in outage.stops.enumerated() {
                let last = index == outage.stops.count - 1
                #expect(try await postgres.stop(), "PostgreSQL stopped")
                let stopped = clock.now
                if index == 0 {
                    let unready = await eventually(within: .seconds(8)) { await worker.status(of: "/ready") == 503 }
                    #expect(unready, "readiness reports the database outage")
                }
                // Records that arrive while the database is away: the worker has something to
                // write the moment it is back.
                try await traffic.produce(200)
                if stop >= .seconds(10) {
                    let visible = await eventually(within: stop - (clock.now - stopped) - .seconds(1)) {
                        (await worker.metric(OutageTraffic.oldestUnwrittenAge) ?? 0) >= 3
                    }
                    #expect(visible, "the age of the oldest unwritten batch grows while nothing is written")
                }
                try await clock.sleep(until: stopped + stop)
                let written = await worker.metric(OutageTraffic.sourceRecords) ?? 0
                #expect(try await postgres.start(), "PostgreSQL started again")
                let started = clock.now
                let next = await Self.timeToNextWrite(worker, after: written, within: last ? .seconds(60) : outage.gap)
                if last {
                    recovery = next
                } else {
                    earlier.append(next)
                    try await clock.sleep(until: started + outage.gap)
                }
            }
            let measured = try #require(
                recovery,
                "no batch written within 60 s of PostgreSQL accepting connections again:\n\(worker.log.suffix(3_000))")
            print("outage \(outage.name): next batch written \(measured) after PostgreSQL accepted connections")
            #expect(
                measured <= Self.recoveryBound,
                """
                the next batch was written \(measured) after PostgreSQL came back \
                (earlier restarts: \(earlier.map { $0.map { "\($0)" } ?? "none" })):
                \(worker.log.suffix(3_000))
                """)
            try await paced.value
            let total = traffic.produced

            try await TestDatabase.withClient(postgres.configuration) { client async throws in
                let caughtUp = await eventually(within: .seconds(90)) {
                    (try? await IngestProcessTests.count(client, "SELECT count(*) FROM contact_record")) == total
                }
                #expect(caughtUp, "every record ingested after the outage:\n\(worker.log.suffix(2_000))")
                #expect(
                    try await IngestProcessTests.count(client, "SELECT sum(versions_seen)::bigint FROM contact_record")
                        == total,
                    "none twice")
            }
            #expect(await eventually(within: Self.recoveryBound) { await worker.status(of: "/ready") == 200 })
            let age = await worker.metric(OutageTraffic.oldestUnwrittenAge)
            #expect(age == 0, "nothing is left unwritten: \(age.map { "\($0) s" } ?? "no gauge")")
            #expect(worker.log.contains("retrying"), "the worker retried with backoff")
            await traffic.close()
        }

        /// Makes the worker's next batches wait inside their transactions: a session locks
        /// `contact_record` until the server stops, and this returns once a write waits for it.
        static func holdWritesInsideTransactions(_ postgres: PrivatePostgres, traffic: OutageTraffic) async throws {
            try await postgres.psqlInBackground("BEGIN; LOCK TABLE contact_record IN SHARE MODE; SELECT pg_sleep(600)")
            try await TestDatabase.withClient(postgres.configuration) { client async throws in
                let waiting = await eventually(within: .seconds(30)) {
                    let count = try? await IngestProcessTests.count(
                        client,
                        """
                        SELECT count(*) FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO contact_record%'
                        """)
                    return (count ?? 0) > 0
                }
                #expect(waiting, "a batch write waits for the lock inside its transaction")
            }
        }

        /// How long after now the worker has written a batch since, and every batch it had taken
        /// before: its count of written source records exceeds `written`, and the oldest batch
        /// still unwritten was taken after now. `nil` when that does not happen within `limit`.
        ///
        /// The second condition catches a lane that stays stuck while another lane writes.
        static func timeToNextWrite(_ worker: SwitchboardProcess, after written: Double, within limit: Duration) async
            -> Duration?
        {
            let clock = ContinuousClock()
            let start = clock.now
            while clock.now - start < limit {
                let elapsed = (clock.now - start).seconds
                if let current = await worker.metric(OutageTraffic.sourceRecords), current > written,
                    let age = await worker.metric(OutageTraffic.oldestUnwrittenAge), age < elapsed
                {
                    return clock.now - start
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return nil
        }
    }
}

extension Duration {
    /// The duration in seconds, with fractions.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The records of an outage test: contact trace records with distinct ids, counted as produced.
final class OutageTraffic: Sendable {
    static let sourceRecords = "switchboard_ingest_source_records_total"
    static let oldestUnwrittenAge = "switchboard_ingest_oldest_unwritten_batch_age_seconds"

    private let producer: BackgroundProducer
    private let next = Mutex(0)

    init(cluster: EmbeddedKafkaCluster) throws {
        producer = try WorkerProcessSuites.IngestProcessTests.producer(cluster)
    }

    /// How many records were produced so far.
    var produced: Int { next.withLock { $0 } }

    /// Produces `count` more records and waits until the broker has them.
    func produce(_ count: Int) async throws {
        let first = next.withLock { value in
            defer { value += count }
            return value
        }
        var fixtures = TrafficFixtures(seed: 21)
        for index in first..<(first + count) {
            try await producer.enqueue(
                topic: "contact-records", key: nil, value: Array(fixtures.contactRecord(index: index).jsonData()))
        }
        try await producer.flush()
    }

    /// Produces `batches` × `count` records, one batch every `interval`.
    func producePaced(batches: Int, of count: Int, every interval: Duration) async throws {
        for _ in 0..<batches {
            try await produce(count)
            try await Task.sleep(for: interval)
        }
    }

    func close() async { await producer.close() }
}

extension SwitchboardProcess {
    /// The value of an unlabelled metric on the worker's `/metrics`, or `nil` when it is not there.
    func metric(_ name: String) async -> Double? {
        guard let body = await body(of: "/metrics") else { return nil }
        for line in body.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
