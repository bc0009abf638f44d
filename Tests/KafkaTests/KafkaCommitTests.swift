import Kafka
import Testing

@Suite("Offset commits to Kafka, for tooling", .serialized)
struct KafkaCommitTests {
    private static let zero = TopicPartition(topic: "tooling", partition: 0)
    private static let one = TopicPartition(topic: "tooling", partition: 1)
    private static let two = TopicPartition(topic: "tooling", partition: 2)

    @Test("a hand-assigned group consumer commits; committed() and a second member read the offsets back")
    func commitAndReadBack() async throws {
        let cluster = try await toolingCluster()
        let configuration = groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "tooling")
        let consumer = try await KafkaConsumer(configuration: configuration, logger: testLogger("first"))
        // As the ingest does: start where PostgreSQL says, here 2 and 0.
        try await consumer.assign([Self.zero: .offset(2), Self.one: .beginning])
        let records = try await consume(consumer, count: 18)
        #expect(records.count == 18)
        #expect(
            try await consumer.committed([Self.zero, Self.one], timeout: .seconds(10)) == [
                Self.zero: nil, Self.one: nil,
            ])

        consumer.commit([Self.zero: 10, Self.one: 7])
        try await pollUntil(consumer, "the commit was acknowledged") { $0.succeeded == 1 }
        #expect(consumer.commitStatistics.requested == 1)
        #expect(consumer.commitStatistics.failed == 0)
        let committed = try await consumer.committed([Self.zero, Self.one, Self.two], timeout: .seconds(10))
        #expect(committed == [Self.zero: 10, Self.one: 7, Self.two: nil])

        // Another member of the group sees the same offsets, and a partition started at
        // `.committed` begins exactly there.
        let second = try await KafkaConsumer(configuration: configuration, logger: testLogger("second"))
        #expect(
            try await second.committed([Self.one, Self.zero], timeout: .seconds(10)) == [Self.zero: 10, Self.one: 7])
        try await second.assign([Self.one: .committed])
        let tail = try await consume(second, count: 3)
        #expect(tail.map(\.offset) == [7, 8, 9])
        try await second.close()
        try await consumer.close()
    }

    @Test("a subscribed member (the ingest's mode) commits under its generation")
    func subscribedMemberCommits() async throws {
        let cluster = try await toolingCluster()
        let offsets = InMemoryOffsetStore()
        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "member"),
            assignmentHandler: offsets,
            logger: testLogger("member")
        )
        try await consumer.subscribe(topics: ["tooling"])
        let records = try await consume(consumer, count: 20, offsets: offsets)
        #expect(records.count == 20)
        let next = offsets.nextOffsets.withLockedValue { $0 }
        #expect(next == [Self.zero: 10, Self.one: 10])
        consumer.commit(next)
        try await pollUntil(consumer, "the commit was acknowledged") { $0.succeeded == 1 }
        #expect(
            try await consumer.committed([Self.zero, Self.one], timeout: .seconds(10)) == [Self.zero: 10, Self.one: 10])
        try await consumer.close()
    }

    @Test("a commit the coordinator rejects is counted and logged, never thrown; the next one repairs it")
    func rejectedCommitIsCounted() async throws {
        let cluster = try await toolingCluster()
        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "rejected"),
            logger: testLogger("rejected")
        )
        try await consumer.assign([Self.zero: .beginning])
        // OffsetCommit (API key 8) answers OFFSET_METADATA_TOO_LARGE (12), which is not retried.
        cluster.pushRequestErrors(apiKey: 8, errors: [12])
        consumer.commit([Self.zero: 4])
        try await pollUntil(consumer, "the rejection was reported") { $0.failed == 1 }
        #expect(consumer.commitStatistics.lastError?.underlyingName == "OFFSET_METADATA_TOO_LARGE")
        #expect(try await consumer.committed([Self.zero], timeout: .seconds(10)) == [Self.zero: nil])

        consumer.commit([Self.zero: 5])
        try await pollUntil(consumer, "the second commit was acknowledged") { $0.succeeded == 1 }
        #expect(try await consumer.committed([Self.zero], timeout: .seconds(10)) == [Self.zero: 5])
        try await consumer.close()

        // After close a commit is dropped and counted, not thrown.
        consumer.commit([Self.zero: 6])
        #expect(consumer.commitStatistics.failed == 2)
        #expect(consumer.commitStatistics.lastError?.code == .closed)
    }

    /// A cluster with topic `tooling` (3 partitions): 10 records in partitions 0 and 1 each.
    private func toolingCluster() async throws -> EmbeddedKafkaCluster {
        let cluster = try cluster(topic: "tooling", partitions: 3)
        try await withProducer(producerConfiguration(cluster.bootstrapServers)) { producer in
            for index in 0..<20 {
                try await producer.enqueue(
                    topic: "tooling", partition: Int32(index % 2), key: nil, value: bytes("\(index)"))
            }
        }
        return cluster
    }

    /// Polls (which serves the commit results) until `condition` holds for the commit statistics.
    private func pollUntil(
        _ consumer: KafkaConsumer,
        _ what: String,
        within deadline: Duration = .seconds(30),
        _ condition: (KafkaCommitStatistics) -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while !condition(consumer.commitStatistics) {
            guard clock.now < end else {
                throw TestFailure("\(what): not within \(deadline); statistics: \(consumer.commitStatistics)")
            }
            _ = try await consumer.poll(maxRecords: 100, maxWait: .milliseconds(100))
        }
    }
}
