import Kafka
import Logging
import Metrics
import Storage
import Synchronization

/// The ingest's source over our Kafka consumer: pulls batches and, on assignment, claims the
/// partitions in PostgreSQL and starts them exactly at the stored offsets.
struct KafkaIngestSource: IngestSource, KafkaAssignmentHandler {
    let pipeline: IngestPipeline
    let maxRecords: Int
    let maxWait: Duration
    /// Set once the consumer exists (the consumer needs the handler at creation).
    let consumer: ConsumerReference
    let logger: Logger

    func nextBatch(maximumRecords: Int) async throws -> [SourceRecord]? {
        guard let consumer = consumer.value else { return [] }
        let batch = try await consumer.poll(maxRecords: max(1, min(maxRecords, maximumRecords)), maxWait: maxWait)
        for error in batch.errors {
            // A stored offset that fell out of retention (`_AUTO_OFFSET_RESET` with
            // auto.offset.reset=error) stops its partition: say so loudly (deploy/README.md, runbook).
            logger.error("consuming failed: \(error)", metadata: ["code": "\(error.underlyingName ?? "-")"])
            Counter(
                label: "switchboard_ingest_consume_errors_total",
                dimensions: [("code", error.underlyingName ?? "unknown")]
            )
            .increment()
        }
        return batch.records.map {
            SourceRecord(
                topic: $0.topic, partition: $0.partition, offset: $0.offset, key: $0.key, value: $0.value,
                rejection: ReceiverKafkaHeaders.value(ReceiverKafkaHeaders.rejection, of: $0),
                origin: ReceiverKafkaHeaders.value(ReceiverKafkaHeaders.origin, of: $0))
        }
    }

    /// Mirrors the offsets PostgreSQL stored to the group in Kafka (asynchronously, never in the
    /// batch path), so `kafka-consumer-groups.sh`, Burrow, KEDA and cloud consoles see the lag.
    func committed(_ nextOffsets: [PartitionKey: Int64]) {
        guard let consumer = consumer.value else { return }
        consumer.commit(
            Dictionary(
                uniqueKeysWithValues: nextOffsets.map {
                    (TopicPartition(topic: $0.key.topic, partition: $0.key.partition), $0.value)
                }))
    }

    func partitionsAssigned(_ partitions: [TopicPartition]) async throws -> [TopicPartition: KafkaStartOffset] {
        let claimed = try await pipeline.claim(
            partitions.map { PartitionKey(topic: $0.topic, partition: $0.partition) })
        var result: [TopicPartition: KafkaStartOffset] = [:]
        for partition in partitions {
            let key = PartitionKey(topic: partition.topic, partition: partition.partition)
            if let stored = claimed[key], let next = stored {
                result[partition] = .offset(next)
            } else {
                result[partition] = .beginning
            }
        }
        return result
    }

    func partitionsRevoked(_ partitions: [TopicPartition], lost: Bool) async {
        await pipeline.release(partitions.map { PartitionKey(topic: $0.topic, partition: $0.partition) })
    }
}

/// A late-bound reference to the consumer (created after its assignment handler).
final class ConsumerReference: Sendable {
    private let box = Mutex<KafkaConsumer?>(nil)
    var value: KafkaConsumer? {
        get { box.withLock { $0 } }
        set { box.withLock { $0 = newValue } }
    }
}
