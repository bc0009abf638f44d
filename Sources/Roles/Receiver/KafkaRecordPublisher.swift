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
        // Chains of records sharing a key (by a hash of it: a collision only joins two chains),
        // linked in request order: `heads` start them, `next` continues them.
        var next = [Int](repeating: -1, count: records.count)
        var heads: [Int] = []
        var last: [UInt64: Int] = [:]
        last.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            let hash = Self.hash(record.key)
            if let previous = last[hash] { next[previous] = index } else { heads.append(index) }
            last[hash] = index
        }
        let producer = self.producer
        let topics = self.topics
        let links = next
        let (failed, firstError) = await withTaskGroup(of: (Int, KafkaError?).self) { group in
            for head in heads {
                group.addTask {
                    var index = head
                    while index >= 0 {
                        let record = records[index]
                        do {
                            try await producer.send(
                                topic: topics[record.stream] ?? record.stream.rawValue, key: record.key,
                                value: record.value,
                                headers: ReceiverKafkaHeaders.headers(
                                    origin: record.origin, rejection: record.rejection))
                        } catch {
                            // The key's later records are not sent: the whole request comes again.
                            var failed = 0
                            while index >= 0 {
                                failed += 1
                                index = links[index]
                            }
                            let kafkaError =
                                error as? KafkaError ?? KafkaError(code: .produce, message: String(describing: error))
                            return (failed, kafkaError)
                        }
                        index = links[index]
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

    /// FNV-1a over the key's bytes.
    private static func hash(_ key: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Stands in for Kafka where the receiver refuses every request (a role without access keys).
struct RefusingPublisher: RecordPublisher {
    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure) {
        throw PublishFailure(
            kind: .unavailable, failed: records.count, total: records.count, message: "the receiver is not configured")
    }
}
