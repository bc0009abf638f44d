import ContactCenter
import Foundation
import Kafka
import Logging
import Metrics
import Primitives
import Server

/// Feeds the floor from `agent-events` and `contact-events`.
///
/// Every partition is assigned by hand (no group membership, no offset commits), so any number
/// of replicas each see every event. On start it rebuilds the floor from the rebuild window (the
/// business day's start, and at least `rebuildWindow` back): each partition starts at the first
/// record of the window, found by timestamp (`offsets(forTimestamps:)`), and only records of the
/// window are folded. It reports caught up once it has reached the high watermark each partition
/// had when it was first fetched.
///
/// - Important: where the broker cannot say (a partition whose records are all older, or
///   librdkafka's mock cluster, which answers no offset for any timestamp) the partition is read
///   from the beginning and its older records skipped: slower, never wrong.
struct FloorKafkaFeed: FloorEventSource {
    /// The client configuration (bootstrap servers and the operator's properties).
    var kafka: KafkaConfiguration
    var agentEventsTopic: String
    var contactEventsTopic: String
    var rebuildWindow: Duration
    var timeZone: TimeZone
    var metadata: @Sendable () async throws -> KafkaClusterMetadata
    var logger: Logger
    /// How long one poll waits for records: the feed's share of the end-to-end latency.
    var pollWait: Duration = .milliseconds(5)

    private static let undecodable = Counter(label: "switchboard_floor_undecodable_total")

    func run(into sink: FloorFeedSink) async throws {
        await sink.lagging("waiting for topics \(agentEventsTopic), \(contactEventsTopic)")
        let partitions = try await waitForPartitions()
        let consumer = try await KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                common: kafka,
                // Required by librdkafka for assign(); never joined, never committed.
                groupID: "switchboard-floor-\(UUID().uuidString.prefix(8))",
                autoOffsetReset: "earliest"
            ),
            logger: logger
        )
        do {
            let cutoff = rebuildStart(now: Date())
            let starts = await startOffsets(consumer, partitions: partitions, cutoff: cutoff)
            try await consumer.assign(
                Dictionary(
                    uniqueKeysWithValues: partitions.map { ($0, starts[$0].map(KafkaStartOffset.offset) ?? .beginning) }
                ))
            try await consume(consumer, partitions: partitions, starts: starts, cutoff: cutoff, sink: sink)
        } catch {
            try? await consumer.close()
            throw error
        }
        try? await consumer.close()
    }

    private func waitForPartitions() async throws -> [TopicPartition] {
        var backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
        while true {
            try Task.checkCancellation()
            if let metadata = try? await metadata(),
                let agents = metadata.topics[agentEventsTopic], let contacts = metadata.topics[contactEventsTopic]
            {
                return (0..<agents).map { TopicPartition(topic: agentEventsTopic, partition: Int32($0)) }
                    + (0..<contacts).map { TopicPartition(topic: contactEventsTopic, partition: Int32($0)) }
            }
            try await backoff.wait()
        }
    }

    /// Where each partition's window starts, by timestamp; partitions the broker cannot place
    /// are absent (read from the beginning).
    private func startOffsets(
        _ consumer: KafkaConsumer, partitions: [TopicPartition], cutoff: Int64
    ) async -> [TopicPartition: Int64] {
        do {
            let found = try await consumer.offsets(
                forTimestamps: Dictionary(uniqueKeysWithValues: partitions.map { ($0, cutoff) }), timeout: .seconds(10))
            let starts = found.compactMapValues { $0 }
            logger.info(
                "floor rebuild: \(starts.count) of \(partitions.count) partitions start at the window by timestamp")
            return starts
        } catch {
            logger.warning(
                "floor rebuild: offsets by timestamp failed (\(error)); reading every partition from the start")
            return [:]
        }
    }

    private func consume(
        _ consumer: KafkaConsumer, partitions: [TopicPartition], starts: [TopicPartition: Int64], cutoff: Int64,
        sink: FloorFeedSink
    ) async throws {
        var targets: [TopicPartition: Int64] = [:]
        var positions: [TopicPartition: Int64] = [:]
        var caughtUp = false
        var replayed = 0
        await sink.lagging("rebuilding the floor from \(UTCTimestamp(millisecondsSince1970: cutoff))")
        while !Task.isCancelled {
            let batch = try await consumer.poll(maxRecords: 5_000, maxWait: pollWait)
            var events: [FloorEvent] = []
            events.reserveCapacity(batch.records.count)
            for record in batch.records {
                positions[record.topicPartition] = record.offset + 1
                if !caughtUp, let timestamp = record.timestampMilliseconds, timestamp < cutoff { continue }
                guard let value = record.value, let event = decode(topic: record.topic, value) else {
                    Self.undecodable.increment()
                    continue
                }
                events.append(event)
            }
            if !events.isEmpty {
                replayed += caughtUp ? 0 : events.count
                await sink.deliver(events)
            }
            if !caughtUp {
                for partition in partitions where targets[partition] == nil {
                    if let marks = try await consumer.watermarks(partition) {
                        targets[partition] = marks.high
                        if positions[partition] == nil { positions[partition] = max(marks.low, starts[partition] ?? 0) }
                    }
                }
                let pending = partitions.filter { partition in
                    guard let target = targets[partition] else { return true }
                    return (positions[partition] ?? 0) < target
                }
                if pending.isEmpty {
                    caughtUp = true
                    logger.info("floor rebuilt from \(replayed) events; live")
                    await sink.caughtUp()
                } else if batch.records.isEmpty {
                    await sink.lagging("rebuilding: \(pending.count) partition(s) behind, \(replayed) events folded")
                }
            }
        }
    }

    /// The start of the business day, or `rebuildWindow` ago when that is earlier.
    private func rebuildStart(now: Date) -> Int64 {
        let day = BusinessDay(containing: UTCTimestamp(now), in: timeZone).start.millisecondsSince1970
        let window = UTCTimestamp(now).millisecondsSince1970 - Int64(rebuildWindow.components.seconds) * 1000
        return min(day, window)
    }

    private func decode(topic: String, _ value: [UInt8]) -> FloorEvent? {
        let data = Data(value)
        if topic == agentEventsTopic { return (try? AgentEvent(jsonData: data)).map(FloorEvent.agent) }
        if topic == contactEventsTopic { return (try? ContactEvent(jsonData: data)).map(FloorEvent.contact) }
        return nil
    }
}
