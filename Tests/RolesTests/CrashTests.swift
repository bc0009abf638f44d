import ContactCenter
import Foundation
import Kafka
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

extension WorkerProcessSuites {
    /// The crash test of the ingest issue: worker processes killed with SIGKILL at random moments
    /// while 50,000 records flow; afterwards the database holds exactly the expected rows.
    @Suite("Ingest crash test", .serialized, .enabled(if: TestDatabase.enabled))
    struct CrashTests {
        /// What was produced, to compare with what the database holds.
        struct Expected: Sendable {
            var newestUpdate: [String: Int64] = [:]
            var contactRecordCopies = 0
            var agentEventIDs: Set<String> = []
            var contactEventIDs: Set<String> = []
            var messages: [(topic: String, value: [UInt8])] = []
        }

        static func traffic(seed: UInt64) -> Expected {
            var fixtures = TrafficFixtures(seed: seed)
            var random = SplitMix64(seed: seed ^ 0xABCD)
            var expected = Expected()
            func addRecord(_ record: ContactTraceRecord) {
                expected.messages.append(("contact-records", Array(record.jsonData())))
                expected.contactRecordCopies += 1
                let update = record.lastUpdateTimestamp.millisecondsSince1970
                expected.newestUpdate[record.contactId] = max(expected.newestUpdate[record.contactId] ?? .min, update)
            }
            for index in 0..<20_000 {
                let record = fixtures.contactRecord(index: index)
                addRecord(record)
                if random.next() % 10 == 0 { addRecord(fixtures.contactRecord(index: index, version: 1)) }  // update
                if random.next() % 33 == 0 { addRecord(record) }  // at-least-once duplicate
            }
            for index in 0..<13_500 {
                let event = fixtures.agentEvent(index: index)
                expected.messages.append(("agent-events", Array(event.jsonData())))
                expected.agentEventIDs.insert(event.eventId)
                if index % 50 == 0 { expected.messages.append(("agent-events", Array(event.jsonData()))) }
            }
            for index in 0..<14_000 {
                let event = fixtures.contactEvent(index: index)
                expected.messages.append(("contact-events", Array(event.jsonData())))
                expected.contactEventIDs.insert(event.id)
            }
            // Interleave the topics as live traffic would (a fixed shuffle).
            expected.messages.shuffle(using: &random)
            return expected
        }

        @Test("SIGKILL at random moments, ≥ 10 times, while 50,000 records flow: exactly the expected rows")
        func killWorkersWhileRecordsFlow() async throws {
            let expected = Self.traffic(seed: 2026)
            #expect(expected.messages.count >= 50_000)
            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            let partitions = ["contact-records": 24, "agent-events": 12, "contact-events": 6]
            for (topic, count) in partitions { try cluster.createTopic(topic, partitions: count) }

            try await TestDatabase.withFreshDatabase("crash") { client, configuration in
                try await TestDatabase.migrate(client)
                let url = TestDatabase.url(configuration, as: .writer)
                let producer = try BackgroundProducer(
                    configuration: KafkaProducerConfiguration(
                        common: KafkaConfiguration(bootstrapServers: cluster.bootstrapServers)),
                    logger: TestDatabase.logger
                )
                // Produce over ~25 s, keeping the end offset of every partition.
                let producing = Task { () -> [String: Int64] in
                    var ends: [String: Int64] = [:]
                    var index = 0
                    for chunk in stride(from: 0, to: expected.messages.count, by: 2_000) {
                        let slice = expected.messages[chunk..<min(chunk + 2_000, expected.messages.count)]
                        let reports = try await withThrowingTaskGroup(of: KafkaDeliveryReport.self) { group in
                            for message in slice {
                                index += 1
                                let key = Array("k\(index % 997)".utf8)
                                group.addTask {
                                    try await producer.send(topic: message.topic, key: key, value: message.value)
                                }
                            }
                            return try await group.reduce(into: []) { $0.append($1) }
                        }
                        for report in reports {
                            let key = "\(report.topicPartition.topic)/\(report.topicPartition.partition)"
                            ends[key] = max(ends[key] ?? 0, report.offset + 1)
                        }
                        try await Task.sleep(for: .seconds(1))
                    }
                    return ends
                }

                var workers = [
                    try SwitchboardProcess.worker(
                        bootstrap: cluster.bootstrapServers, databaseURL: url, group: "crash", name: "crash-a"),
                    try SwitchboardProcess.worker(
                        bootstrap: cluster.bootstrapServers, databaseURL: url, group: "crash", name: "crash-b"),
                ]
                var random = SplitMix64(seed: UInt64(Date().timeIntervalSince1970))
                var kills = 0
                while kills < 12 {
                    try await Task.sleep(for: .milliseconds(1_500 + Int(random.next() % 2_500)))
                    let victim = Int(random.next() % 2)
                    let status = await workers[victim].stop(signal: SIGKILL)
                    #expect(status == 128 + SIGKILL)
                    kills += 1
                    workers[victim] = try SwitchboardProcess.worker(
                        bootstrap: cluster.bootstrapServers, databaseURL: url, group: "crash", name: "crash-\(kills)")
                }
                let ends = try await producing.value
                #expect(kills >= 10)

                let caughtUp = await eventually(within: .seconds(180)) {
                    guard
                        let stored = try? await OffsetStore(client: client, group: "crash", logger: TestDatabase.logger)
                            .nextOffsets()
                    else { return false }
                    return ends.allSatisfy { key, end in
                        let parts = key.split(separator: "/")
                        return stored[PartitionKey(topic: String(parts[0]), partition: Int32(parts[1])!)] == end
                    }
                }
                #expect(caughtUp, "the offsets equal the end of each partition")
                for worker in workers {
                    #expect(await worker.stop(signal: SIGTERM) == 0, "graceful stop:\n\(worker.log.suffix(1_500))")
                }

                // Exactly the expected contact records: every id, with its newest update.
                let rows = try await client.query(
                    "SELECT contact_id, (extract(epoch FROM last_update_ts) * 1000)::bigint, versions_seen FROM contact_record",
                    logger: TestDatabase.logger
                )
                var stored: [String: Int64] = [:]
                var versions = 0
                for try await (id, update, seen) in rows.decode((String, Int64, Int).self) {
                    stored[id] = update
                    versions += seen
                }
                #expect(stored.count == expected.newestUpdate.count)
                #expect(stored == expected.newestUpdate, "checksum over contact id + last update")
                #expect(versions == expected.contactRecordCopies, "every copy counted once: none lost, none twice")
                let agentEvents = try await IngestProcessTests.count(client, "SELECT count(*) FROM agent_event")
                let distinctAgentEvents = try await IngestProcessTests.count(
                    client, "SELECT count(DISTINCT event_id) FROM agent_event")
                #expect(agentEvents == expected.agentEventIDs.count)
                #expect(distinctAgentEvents == agentEvents)
                #expect(
                    try await IngestProcessTests.count(client, "SELECT count(*) FROM contact_event")
                        == expected.contactEventIDs.count)
                #expect(try await IngestProcessTests.count(client, "SELECT count(*) FROM dead_letter") == 0)
                // The rollups joined every transaction: the views equal their definitions over the raw rows.
                let differences = try await RollupStore(client: client, logger: TestDatabase.logger).differences()
                #expect(differences == [], "rollups after the crashes")
                await producer.close()
            }
        }
    }
}
