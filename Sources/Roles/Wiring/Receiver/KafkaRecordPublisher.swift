import ContactCenter
import Kafka
import Server

/// The receiver's ``RecordPublisher`` over Kafka: the one place the receiver uses the producer.
///
/// The producer is idempotent (`enable.idempotence`, hence `acks=all`): a record Kafka
/// acknowledged is on every in-sync replica, and librdkafka's own retries never duplicate or
/// reorder it. ``publish(_:)`` hands a request's records to the producer in request order as one
/// batch and awaits the batch's delivery reports; records sharing a key go to one partition, so a
/// key's order in Kafka is its order in the request. When any record fails the whole request
/// comes again: records already stored are stored twice, which the ingest absorbs (the version
/// guard for contact records, event ids for events).
///
/// One batch rather than a task and a continuation per record: at 500 records per Firehose
/// request the per-record tasks cost more CPU than producing the records (`make bench-receiver`).
struct KafkaRecordPublisher: RecordPublisher {
    let producer: KafkaProducer
    /// The topic of each stream.
    let topics: [ConnectStream: String]

    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure) {
        guard !records.isEmpty else { return }
        let messages = records.map { record in
            KafkaProducerMessage(
                topic: topics[record.stream] ?? record.stream.rawValue, key: record.key, value: record.value,
                headers: ReceiverKafkaHeaders.headers(origin: record.origin, rejection: record.rejection))
        }
        let delivery = await producer.send(messages)
        guard let firstError = delivery.firstError, delivery.failed > 0 else { return }
        throw PublishFailure(
            kind: firstError.underlyingName == "_QUEUE_FULL" ? .overloaded : .unavailable,
            failed: delivery.failed, total: records.count, message: firstError.description)
    }
}

/// Stands in for Kafka where the receiver refuses every request (a role without access keys).
struct RefusingPublisher: RecordPublisher {
    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure) {
        throw PublishFailure(
            kind: .unavailable, failed: records.count, total: records.count, message: "the receiver is not configured")
    }
}
