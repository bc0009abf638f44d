import Kafka
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// A logger for tests: librdkafka's chatter only from warnings up.
func testLogger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = .warning
    return logger
}

/// An embedded cluster with one topic.
func cluster(brokers: Int = 1, topic: String, partitions: Int) throws -> EmbeddedKafkaCluster {
    let cluster = try EmbeddedKafkaCluster(brokers: brokers, logger: testLogger("cluster"))
    try cluster.createTopic(topic, partitions: partitions)
    return cluster
}

/// Producer settings for a cluster.
func producerConfiguration(_ bootstrap: String) -> KafkaProducerConfiguration {
    KafkaProducerConfiguration(common: KafkaConfiguration(bootstrapServers: bootstrap))
}

/// Runs `body` with a producer that runs in a `ServiceGroup`, as the executable runs it. When
/// `body` returns (or throws) the group shuts down gracefully, which flushes what `body` left
/// outstanding and destroys the producer.
func withProducer<Result>(
    _ configuration: KafkaProducerConfiguration,
    _ body: (KafkaProducer) async throws -> Result
) async throws -> Result {
    let producer = try KafkaProducer(configuration: configuration, logger: testLogger("producer"))
    let services = ServiceGroup(services: [producer], logger: testLogger("services"))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        let result: Result
        do {
            result = try await body(producer)
        } catch {
            await services.triggerGracefulShutdown()
            try? await group.waitForAll()
            throw error
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return result
    }
}

/// Consumer settings that let a group form quickly on the mock cluster (it needs > 2000 ms).
func groupConsumerConfiguration(
    bootstrap: String,
    group: String,
    reset: String = "earliest"
) -> KafkaConsumerConfiguration {
    KafkaConsumerConfiguration(
        common: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "test-\(group)"),
        groupID: group,
        sessionTimeoutMilliseconds: 6_000,
        heartbeatIntervalMilliseconds: 1_500,
        autoOffsetReset: reset,
        closeTimeout: .seconds(20)
    )
}

/// Records what the assignment handler was told, and answers with fixed start offsets.
final class RecordingAssignmentHandler: KafkaAssignmentHandler {
    let startOffsets: [TopicPartition: KafkaStartOffset]
    let assigned = NIOLockedValueBox<Set<TopicPartition>>([])
    let revokedCount = NIOLockedValueBox(0)

    init(startOffsets: [TopicPartition: KafkaStartOffset] = [:]) {
        self.startOffsets = startOffsets
    }

    func partitionsAssigned(_ partitions: [TopicPartition]) async throws -> [TopicPartition: KafkaStartOffset] {
        assigned.withLockedValue { $0.formUnion(partitions) }
        return startOffsets.filter { partitions.contains($0.key) }
    }

    func partitionsRevoked(_ partitions: [TopicPartition], lost: Bool) async {
        assigned.withLockedValue { $0.subtract(partitions) }
        revokedCount.withLockedValue { $0 += 1 }
    }
}

/// Polls until `count` records arrived or `deadline` passed.
func consume(
    _ consumer: KafkaConsumer,
    count: Int,
    within deadline: Duration = .seconds(60),
    offsets: InMemoryOffsetStore? = nil
) async throws -> [KafkaRecord] {
    var records: [KafkaRecord] = []
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while records.count < count && clock.now < end {
        let batch = try await consumer.poll(maxRecords: 2_000, maxWait: .milliseconds(200))
        records += batch.records
        offsets?.processed(batch.records)
    }
    return records
}

/// A test cannot go on: a condition it waited for did not come about in time, or its set-up failed.
struct TestFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Keeps the next offset of each partition in memory, as the ingest keeps them in PostgreSQL:
/// a consumer that re-joins starts exactly after what it already processed.
final class InMemoryOffsetStore: KafkaAssignmentHandler {
    let nextOffsets = NIOLockedValueBox<[TopicPartition: Int64]>([:])
    /// How often partitions were lost (taken away without a clean hand-over).
    let lostCount = NIOLockedValueBox(0)

    func processed(_ records: [KafkaRecord]) {
        nextOffsets.withLockedValue { offsets in
            for record in records {
                offsets[record.topicPartition] = max(offsets[record.topicPartition] ?? 0, record.offset + 1)
            }
        }
    }

    func partitionsAssigned(_ partitions: [TopicPartition]) async throws -> [TopicPartition: KafkaStartOffset] {
        let stored = nextOffsets.withLockedValue { $0 }
        return Dictionary(uniqueKeysWithValues: partitions.map { ($0, stored[$0].map { .offset($0) } ?? .beginning) })
    }

    func partitionsRevoked(_ partitions: [TopicPartition], lost: Bool) async {
        if lost { lostCount.withLockedValue { $0 += 1 } }
    }
}
