import CRdKafka
import Synchronization

/// Where and when a record was stored by the broker.
public struct KafkaDeliveryReport: Sendable, Hashable {
    /// The topic and partition the record was written to.
    public var topicPartition: TopicPartition
    /// The record's offset in that partition.
    public var offset: Int64
}

/// One record for ``KafkaProducer/send(_:)``.
public struct KafkaProducerMessage: Sendable, Hashable {
    /// The topic to write to.
    public var topic: String
    /// A fixed partition, or `nil` to let the partitioner pick one from the key.
    public var partition: Int32?
    /// The record's key; records with the same key go to the same partition.
    public var key: [UInt8]?
    /// The record's value; `nil` produces a tombstone.
    public var value: [UInt8]?
    /// The record's headers.
    public var headers: [KafkaHeader]

    /// - Parameters: see the properties.
    public init(
        topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader] = []
    ) {
        self.topic = topic
        self.partition = partition
        self.key = key
        self.value = value
        self.headers = headers
    }
}

/// How a ``KafkaProducer/send(_:)`` batch ended.
public struct KafkaBatchDelivery: Sendable {
    /// Records not stored (refused by librdkafka or reported undelivered).
    public var failed: Int
    /// The first error seen, when any record failed.
    public var firstError: KafkaError?
}

extension KafkaProducer {
    /// Produces records and waits until the broker acknowledged (or failed) every one of them.
    ///
    /// The records are handed to librdkafka in order, so records of one partition (one key) are
    /// written in the order given; an idempotent producer keeps that order across its retries.
    /// One continuation waits for the whole batch: this is the producer's path for many records
    /// at once (a task per record costs more than producing it).
    ///
    /// - Returns: How many records failed and the first error; records refused on the way in
    ///   (`_QUEUE_FULL`, a shut-down producer) count as failed.
    public func send(_ messages: [KafkaProducerMessage]) async -> KafkaBatchDelivery {
        guard !messages.isEmpty else { return KafkaBatchDelivery(failed: 0, firstError: nil) }
        return await withCheckedContinuation { continuation in
            let id = client.context.deliveries.withLock { registry in
                let id = registry.nextID
                registry.nextID &+= 1
                registry.batches[id] = DeliveryRegistry.PendingBatch(
                    remaining: messages.count, continuation: continuation)
                return id
            }
            var refused = 0
            var refusal: KafkaError?
            for message in messages {
                let result = produce(
                    topic: message.topic, partition: message.partition, key: message.key, value: message.value,
                    headers: message.headers, id: id)
                if let error = result.error(topic: message.topic) {
                    refused += 1
                    if refusal == nil { refusal = error }
                }
            }
            guard refused > 0 else { return }
            let done = client.context.deliveries.withLock { registry -> KafkaBatchDelivery? in
                guard var batch = registry.batches[id] else { return nil }
                guard batch.settle(refused, error: refusal) != nil else {
                    registry.batches[id] = batch
                    return nil
                }
                registry.batches[id] = nil
                return batch.outcome
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Produces one record and waits until the broker acknowledged it.
    ///
    /// The acknowledgement arrives through ``run()``: called before the producer runs, this waits
    /// until it does.
    ///
    /// - Parameters:
    ///   - topic: The topic to write to.
    ///   - partition: A fixed partition, or `nil` to let the partitioner pick one from the key.
    ///   - key: The record's key; records with the same key go to the same partition.
    ///   - value: The record's value; `nil` produces a tombstone.
    ///   - headers: The record's headers.
    /// - Returns: The partition and offset the record was stored at.
    /// - Throws: ``KafkaError`` `.produce` when librdkafka refuses the record or reports it
    ///   undelivered (including records still outstanding at shutdown); `.closed` when the producer
    ///   is shutting down or shut down.
    @discardableResult
    public func send(
        topic: String,
        partition: Int32? = nil,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: [KafkaHeader] = []
    ) async throws -> KafkaDeliveryReport {
        try await withCheckedThrowingContinuation { continuation in
            let id = client.context.deliveries.withLock { registry in
                let id = registry.nextID
                registry.nextID &+= 1
                registry.waiting[id] = continuation
                return id
            }
            let result = produce(topic: topic, partition: partition, key: key, value: value, headers: headers, id: id)
            if let error = result.error(topic: topic) {
                let continuation = client.context.deliveries.withLock { $0.waiting.removeValue(forKey: id) }
                continuation?.resume(throwing: error)
            }
        }
    }

    /// Hands one record to librdkafka without waiting for its delivery report.
    ///
    /// When librdkafka's local queue is full this waits (without blocking a thread) until there is
    /// room. Undelivered records are logged and counted in ``undeliveredCount``.
    ///
    /// - Throws: ``KafkaError`` `.produce` when librdkafka refuses the record; `.closed` when the
    ///   producer is shutting down or shut down; `CancellationError` when cancelled while waiting
    ///   for room.
    public func enqueue(
        topic: String,
        partition: Int32? = nil,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: [KafkaHeader] = []
    ) async throws {
        var backoff = Duration.milliseconds(1)
        while true {
            let result = produce(topic: topic, partition: partition, key: key, value: value, headers: headers, id: 0)
            guard case .refused(RD_KAFKA_RESP_ERR__QUEUE_FULL) = result else {
                if let error = result.error(topic: topic) { throw error }
                return
            }
            try await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .milliseconds(50))
        }
    }

    /// The outcome of handing one record to librdkafka.
    enum ProduceResult {
        case accepted
        case refused(rd_kafka_resp_err_t)
        case shutDown

        func error(topic: String) -> KafkaError? {
            switch self {
            case .accepted: nil
            case .refused(let code): KafkaError.rdKafka(code, code: .produce, context: "produce to \(topic)")
            case .shutDown: KafkaError(code: .closed, message: "producer is shut down; record for \(topic) refused")
            }
        }
    }

    private func produce(
        topic: String,
        partition: Int32?,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: [KafkaHeader],
        id: UInt
    ) -> ProduceResult {
        var headerList: OpaquePointer? = nil
        if !headers.isEmpty {
            headerList = rd_kafka_headers_new(headers.count)
            for header in headers {
                if let value = header.value {
                    value.withUnsafeBytes { bytes in
                        _ = rd_kafka_header_add(headerList, header.key, -1, bytes.baseAddress, bytes.count)
                    }
                } else {
                    _ = rd_kafka_header_add(headerList, header.key, -1, nil, 0)
                }
            }
        }
        // Under the lock, so that shutdown cannot destroy the handle during the (non-blocking) call.
        let result = state.withLock { state -> ProduceResult in
            guard state.acceptsRecords else { return .shutDown }
            let code = produceva(
                topic: topic, partition: partition, key: key, value: value, headers: headerList, id: id)
            return code == RD_KAFKA_RESP_ERR_NO_ERROR ? .accepted : .refused(code)
        }
        if case .accepted = result {
            // Ownership of the headers passed to librdkafka.
        } else if let headerList {
            rd_kafka_headers_destroy(headerList)
        }
        return result
    }

    private func produceva(
        topic: String,
        partition: Int32?,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: OpaquePointer?,
        id: UInt
    ) -> rd_kafka_resp_err_t {
        topic.withCString { topicName in
            withOptionalBytes(key) { keyPointer, keyCount in
                withOptionalBytes(value) { valuePointer, valueCount in
                    var values = [rd_kafka_vu_t](repeating: rd_kafka_vu_t(), count: 7)
                    values[0].vtype = RD_KAFKA_VTYPE_TOPIC
                    values[0].u.cstr = topicName
                    values[1].vtype = RD_KAFKA_VTYPE_PARTITION
                    values[1].u.i32 = partition ?? -1  // RD_KAFKA_PARTITION_UA
                    values[2].vtype = RD_KAFKA_VTYPE_VALUE
                    values[2].u.mem.ptr = UnsafeMutableRawPointer(mutating: valuePointer)
                    values[2].u.mem.size = valueCount
                    values[3].vtype = RD_KAFKA_VTYPE_KEY
                    values[3].u.mem.ptr = UnsafeMutableRawPointer(mutating: keyPointer)
                    values[3].u.mem.size = keyCount
                    values[4].vtype = RD_KAFKA_VTYPE_MSGFLAGS
                    values[4].u.i = RD_KAFKA_MSG_F_COPY
                    values[5].vtype = RD_KAFKA_VTYPE_OPAQUE
                    values[5].u.ptr = UnsafeMutableRawPointer(bitPattern: id)
                    var count = 6
                    if let headers {
                        values[6].vtype = RD_KAFKA_VTYPE_HEADERS
                        values[6].u.headers = headers
                        count = 7
                    }
                    guard let error = rd_kafka_produceva(client.handle, &values, count) else {
                        return RD_KAFKA_RESP_ERR_NO_ERROR
                    }
                    let code = rd_kafka_error_code(error)
                    rd_kafka_error_destroy(error)
                    return code
                }
            }
        }
    }

    /// Resolves the waiting continuation (if any) of one delivery report. Runs on the poll thread
    /// (or the shutdown's, for records failed at shutdown).
    static func deliver(_ message: rd_kafka_message_t, context: RDKafkaContext) {
        let id = UInt(bitPattern: message._private)
        let failed = message.err != RD_KAFKA_RESP_ERR_NO_ERROR
        var topic: String {
            message.rkt.flatMap { rd_kafka_topic_name($0) }.flatMap { String(validatingCString: $0) } ?? ""
        }
        // A batch's record is only counted: its error (the first of the batch) is built once.
        let target = context.deliveries.withLock { registry -> DeliveryTarget in
            if id == 0 {
                if failed { registry.undelivered += 1 }
                return .none
            }
            if let continuation = registry.waiting.removeValue(forKey: id) { return .single(continuation) }
            guard var pending = registry.batches[id] else { return .none }
            if failed && pending.outcome.firstError != nil {
                pending.outcome.failed += 1
                pending.remaining -= 1
            } else if failed {
                return .batchFailure  // settled below, with the error, outside the lock's fast path
            } else {
                pending.remaining -= 1
            }
            if pending.remaining == 0 {
                registry.batches[id] = nil
                return .batch(BatchResumption(continuation: pending.continuation, outcome: pending.outcome))
            }
            registry.batches[id] = pending
            return .none
        }
        switch target {
        case .none:
            if failed && id == 0 {
                context.logger.error(
                    "record not delivered: \(KafkaError.rdKafka(message.err, code: .produce, context: "delivery to \(topic)"))"
                )
            }
        case .batch(let resumption):
            resumption.continuation.resume(returning: resumption.outcome)
        case .batchFailure:
            let error = KafkaError.rdKafka(message.err, code: .produce, context: "delivery to \(topic)")
            let resumption = context.deliveries.withLock { registry -> BatchResumption? in
                guard var pending = registry.batches[id] else { return nil }
                guard let continuation = pending.settle(1, error: error) else {
                    registry.batches[id] = pending
                    return nil
                }
                registry.batches[id] = nil
                return BatchResumption(continuation: continuation, outcome: pending.outcome)
            }
            resumption.map { $0.continuation.resume(returning: $0.outcome) }
        case .single(let continuation):
            if failed {
                continuation.resume(
                    throwing: KafkaError.rdKafka(message.err, code: .produce, context: "delivery to \(topic)"))
            } else {
                continuation.resume(
                    returning: KafkaDeliveryReport(
                        topicPartition: TopicPartition(topic: topic, partition: message.partition),
                        offset: message.offset))
            }
        }
    }
}

/// Who waits for one delivery report.
private enum DeliveryTarget {
    case none
    case single(CheckedContinuation<KafkaDeliveryReport, any Error>)
    /// The batch's last record: resume it.
    case batch(BatchResumption)
    /// The batch's first failed record: its error must be built and counted.
    case batchFailure
}

/// A batch's continuation and outcome, taken out of the registry to be resumed outside its lock.
private struct BatchResumption {
    let continuation: CheckedContinuation<KafkaBatchDelivery, Never>
    let outcome: KafkaBatchDelivery
}

/// Calls `body` with a pointer and count for optional bytes (`nil`, 0 for `nil`).
private func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawPointer?, Int) -> R) -> R {
    guard let bytes else { return body(nil, 0) }
    return bytes.withUnsafeBytes { body($0.baseAddress, $0.count) }
}
