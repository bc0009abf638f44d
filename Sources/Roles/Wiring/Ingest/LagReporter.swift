import Kafka
import Metrics
import Storage

/// Publishes consumer lag per partition (high watermark − stored next offset) every few seconds.
///
/// Only the partitions this worker owns are reported: when a rebalance moves a partition to
/// another worker, its gauge here is removed (not left at its last value), so summing
/// `switchboard_ingest_lag_records` over the workers of a group counts each partition once.
struct LagReporter: Sendable {
    let consumer: KafkaConsumer
    let pipeline: IngestPipeline

    func run() async {
        var reported: Set<PartitionKey> = []
        defer { for key in reported { Self.gauge(key).destroy() } }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(5))
            guard let assignment = try? await consumer.assignment() else { continue }
            let positions = (try? await pipeline.storedOffsets()) ?? [:]
            var current: Set<PartitionKey> = []
            for partition in assignment {
                let key = PartitionKey(topic: partition.topic, partition: partition.partition)
                current.insert(key)
                guard let marks = try? await consumer.watermarks(partition) else { continue }
                let next = positions[key] ?? marks.low
                Self.gauge(key).record(max(0, marks.high - next))
            }
            for key in reported.subtracting(current) { Self.gauge(key).destroy() }
            reported = current
        }
    }

    static func gauge(_ key: PartitionKey) -> Gauge {
        Gauge(
            label: "switchboard_ingest_lag_records",
            dimensions: [("topic", key.topic), ("partition", String(key.partition))])
    }
}
