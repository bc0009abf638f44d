import ContactCenter
import Foundation
import Kafka
import Logging
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

extension WorkerProcessSuites {
    /// End-to-end tests of `switchboard ingest` worker processes against the embedded Kafka cluster
    /// and a real PostgreSQL server.
    @Suite("Ingest workers end to end", .serialized, .enabled(if: TestDatabase.enabled))
    struct IngestProcessTests {
        static func producer(_ cluster: EmbeddedKafkaCluster) throws -> BackgroundProducer {
            try BackgroundProducer(
                configuration: KafkaProducerConfiguration(
                    common: KafkaConfiguration(
                        bootstrapServers: cluster.bootstrapServers,
                        properties: ["message.max.bytes": "10000000"]
                    )
                ),
                logger: TestDatabase.logger
            )
        }

        static func count(_ client: PostgresClient, _ sql: String) async throws -> Int {
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            for try await value in rows.decode(Int.self) { return value }
            return 0
        }

        @Test("bad records go to dead_letter through Kafka, the partition moves on, counts are metrics")
        func badInputThroughKafka() async throws {
            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            for topic in IngestTopics().all { try cluster.createTopic(topic, partitions: 2) }
            try await TestDatabase.withFreshDatabase("e2e_bad") { client, configuration in
                try await TestDatabase.migrate(client)
                let producer = try Self.producer(cluster)
                var fixtures = TrafficFixtures(seed: 11)
                let values: [[UInt8]?] = [
                    Array("{\"ContactId\": ".utf8),
                    Array(#"{"LastUpdateTimestamp":"2026-11-20T01:02:03Z"}"#.utf8),
                    Array(#"{"ContactId":"x","LastUpdateTimestamp":42}"#.utf8),
                    [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D],
                    nil,
                ]
                for value in values {
                    try await producer.send(
                        topic: "contact-records", partition: 0, key: Array("bad".utf8), value: value)
                }
                // The mock broker keeps ~5 MiB per partition and evicts older data silently, so the
                // 5 MB record gets a partition of its own.
                try await producer.send(
                    topic: "contact-records", partition: 1, key: Array("big".utf8),
                    value: Array(repeating: UInt8(ascii: " "), count: 5_000_000))
                for index in 0..<20 {
                    try await producer.send(
                        topic: "contact-records", partition: 0, key: nil,
                        value: Array(fixtures.contactRecord(index: index).jsonData()))
                }
                let worker = try SwitchboardProcess.worker(
                    bootstrap: cluster.bootstrapServers,
                    databaseURL: TestDatabase.url(configuration, as: .writer),
                    group: "e2e-bad",
                    name: "bad"
                )
                defer { worker.kill() }
                // The worker runs as a member of switchboard_writer, as in production.
                let ingested = await eventually(within: .seconds(60)) {
                    let records = try? await Self.count(client, "SELECT count(*) FROM contact_record")
                    let letters = try? await Self.count(client, "SELECT count(*) FROM dead_letter")
                    return records == 20 && letters == 6
                }
                #expect(ingested, "good records after the bad ones were ingested")
                #expect(try await Self.count(client, "SELECT count(*) FROM dead_letter") == 6)
                #expect(
                    try await Self.count(
                        client,
                        "SELECT next_offset FROM consumer_offset WHERE topic = 'contact-records' AND partition = 0"
                    ) == 25
                )
                #expect(
                    try await Self.count(
                        client,
                        "SELECT next_offset FROM consumer_offset WHERE topic = 'contact-records' AND partition = 1"
                    ) == 1
                )
                let metrics = await worker.body(of: "/metrics") ?? ""
                #expect(metrics.contains(#"switchboard_ingest_dead_letters_total{reason="invalid"} 4"#))
                #expect(metrics.contains(#"switchboard_ingest_dead_letters_total{reason="too_large"} 1"#))
                #expect(metrics.contains(#"switchboard_ingest_dead_letters_total{reason="tombstone"} 1"#))
                // Where the worker's time went: it polled, decoded and wrote (each for some time);
                // the queue stage is exported even while the pump never waited for room.
                let stages = SwitchboardProcess.metricValues(
                    "switchboard_ingest_stage_seconds_total", by: "stage", in: metrics)
                #expect(Set(stages.keys) == ["poll", "decode", "queue", "write"], "\(stages)")
                for stage in ["poll", "decode", "write"] {
                    #expect((stages[stage] ?? 0) > 0, "\(stage): \(stages)")
                }
                // The offsets PostgreSQL stored are mirrored to the group in Kafka for lag tools.
                let reader = try await KafkaConsumer(
                    configuration: KafkaConsumerConfiguration(
                        common: KafkaConfiguration(bootstrapServers: cluster.bootstrapServers), groupID: "e2e-bad"),
                    logger: TestDatabase.logger)
                let partitions = [0, 1].map { TopicPartition(topic: "contact-records", partition: Int32($0)) }
                var mirrored: [TopicPartition: Int64?] = [:]
                _ = await eventually(within: .seconds(20)) {
                    let committed = (try? await reader.committed(partitions, timeout: .seconds(5))) ?? [:]
                    return committed[partitions[0]] == 25 && committed[partitions[1]] == 1
                }
                mirrored = try await reader.committed(partitions, timeout: .seconds(5))
                #expect(mirrored[partitions[0]] == 25 && mirrored[partitions[1]] == 1, "Kafka's copy: \(mirrored)")
                try await reader.close()
                #expect(await worker.stop(signal: SIGTERM) == 0, "graceful stop exits 0:\n\(worker.log)")
                await producer.close()
            }
        }

        /// The partitions a worker reports `switchboard_ingest_lag_records` for, as `topic/partition`.
        static func lagPartitions(_ worker: SwitchboardProcess) async -> Set<String> {
            let metrics = await worker.body(of: "/metrics") ?? ""
            var partitions: Set<String> = []
            for line in metrics.split(separator: "\n") where line.hasPrefix("switchboard_ingest_lag_records{") {
                guard let topic = line.firstMatch(of: /topic="([^"]+)"/)?.1,
                    let partition = line.firstMatch(of: /partition="([0-9]+)"/)?.1
                else { continue }
                partitions.insert("\(topic)/\(partition)")
            }
            return partitions
        }

        @Test("lag gauges follow the assignment: after a rebalance each partition is reported by one worker")
        func lagFollowsAssignment() async throws {
            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            for topic in IngestTopics().all { try cluster.createTopic(topic, partitions: 4) }
            let all = Set(IngestTopics().all.flatMap { topic in (0..<4).map { "\(topic)/\($0)" } })
            try await TestDatabase.withFreshDatabase("e2e_lag") { client, configuration in
                try await TestDatabase.migrate(client)
                let url = TestDatabase.url(configuration, as: .writer)
                let first = try SwitchboardProcess.worker(
                    bootstrap: cluster.bootstrapServers, databaseURL: url, group: "e2e-lag", name: "lag-1")
                defer { first.kill() }
                let alone = await eventually(within: .seconds(60)) { await Self.lagPartitions(first) == all }
                let reported = await Self.lagPartitions(first)
                #expect(alone, "one worker reports every partition: \(reported.sorted())")

                let second = try SwitchboardProcess.worker(
                    bootstrap: cluster.bootstrapServers, databaseURL: url, group: "e2e-lag", name: "lag-2")
                defer { second.kill() }
                let split = await eventually(within: .seconds(90)) {
                    let a = await Self.lagPartitions(first)
                    let b = await Self.lagPartitions(second)
                    return !a.isEmpty && !b.isEmpty && a.isDisjoint(with: b) && a.union(b) == all
                }
                let a = await Self.lagPartitions(first)
                let b = await Self.lagPartitions(second)
                #expect(split, "each partition reported once: \(a.sorted()) / \(b.sorted())")
                #expect(await first.stop(signal: SIGTERM) == 0)
                #expect(await second.stop(signal: SIGTERM) == 0)
            }
        }

        @Test("the worker's malloc is jemalloc, returning freed pages after 1 s")
        func workerAllocator() async throws {
            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            for topic in IngestTopics().all { try cluster.createTopic(topic, partitions: 1) }
            try await TestDatabase.withFreshDatabase("e2e_allocator") { client, configuration in
                try await TestDatabase.migrate(client)
                let url = TestDatabase.url(configuration, as: .writer)
                let worker = try SwitchboardProcess.worker(
                    bootstrap: cluster.bootstrapServers, databaseURL: url, group: "e2e-allocator", name: "allocator")
                defer { worker.kill() }
                #expect(await worker.waitUntilReady(), "the worker became ready: \(worker.log)")
                // The shared objects mapped into the worker: jemalloc is there only if the
                // executable links it (Package.swift).
                // (Read to its end: /proc files report no size, and a read sized by it stops early.)
                let maps = String(
                    decoding: FileHandle(forReadingAtPath: "/proc/\(worker.process.pid)/maps")?.readDataToEndOfFile()
                        ?? Data(),
                    as: UTF8.self)
                #expect(maps.contains("/libjemalloc.so"), "the worker maps jemalloc")
                // The decay the worker reads back from jemalloc after setting it (Allocator).
                let line = worker.log.split(separator: "\n").first { $0.contains("memory allocator:") } ?? ""
                #expect(line.contains("jemalloc") && line.contains("dirty_decay_ms=1000"), "\(line)")
                #expect(await worker.stop(signal: SIGTERM) == 0)
            }
        }
    }
}
