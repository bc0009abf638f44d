import ContactCenter
import Kafka
import Server

/// The receiver's ``RecordPublisher`` over Kafka: the one place the receiver uses the producer.
///
/// The producer is idempotent (`enable.idempotence`, hence `acks=all`): a record Kafka
/// acknowledged is on every in-sync replica, and librdkafka's own retries never duplicate or
/// reorder it. ``publish(_:)`` hands every record to the producer and awaits every delivery
/// report concurrently, except that records sharing a key are sent one after the other, so a
/// key's order in Kafka is its order in the request however the producer schedules concurrent
/// sends. When a record of a key fails, the key's later records are not sent: the whole request
/// comes again.
struct KafkaRecordPublisher: RecordPublisher {
    let producer: KafkaProducer
    /// The topic of each stream.
    let topics: [ConnectStream: String]

    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure) {
        guard !records.isEmpty else { return }
        // Chains of record indices, one per key, in request order.
        var chains: [[Int]] = []
        var chainOfKey: [[UInt8]: Int] = [:]
        chainOfKey.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            if let chain = chainOfKey[record.key] {
                chains[chain].append(index)
            } else {
                chainOfKey[record.key] = chains.count
                chains.append([index])
            }
        }
        let producer = self.producer
        let topics = self.topics
        let (failed, firstError) = await withTaskGroup(of: (Int, KafkaError?).self) { group in
            for chain in chains {
                group.addTask {
                    for (position, index) in chain.enumerated() {
                        let record = records[index]
                        do {
                            try await producer.send(
                                topic: topics[record.stream] ?? record.stream.rawValue, key: record.key,
                                value: record.value,
                                headers: ReceiverKafkaHeaders.headers(
                                    origin: record.origin, rejection: record.rejection))
                        } catch {
                            let kafkaError =
                                error as? KafkaError ?? KafkaError(code: .produce, message: String(describing: error))
                            return (chain.count - position, kafkaError)
                        }
                    }
                    return (0, nil)
                }
            }
            var failed = 0
            var firstError: KafkaError?
            for await (count, error) in group {
                failed += count
                if firstError == nil { firstError = error }
            }
            return (failed, firstError)
        }
        guard let firstError else { return }
        throw PublishFailure(
            kind: firstError.underlyingName == "_QUEUE_FULL" ? .overloaded : .unavailable,
            failed: failed, total: records.count, message: firstError.description)
    }
}

/// Stands in for Kafka where the receiver refuses every request (a role without access keys).
struct RefusingPublisher: RecordPublisher {
    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure) {
        throw PublishFailure(
            kind: .unavailable, failed: records.count, total: records.count, message: "the receiver is not configured")
    }
}
