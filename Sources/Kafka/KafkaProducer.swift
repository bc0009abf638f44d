import CRdKafka
import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Where and when a record was stored by the broker.
public struct KafkaDeliveryReport: Sendable, Hashable {
    /// The topic and partition the record was written to.
    public var topicPartition: TopicPartition
    /// The record's offset in that partition.
    public var offset: Int64
}

/// A summary of the cluster as seen through a client's metadata request.
public struct KafkaClusterMetadata: Sendable, Hashable {
    /// The number of brokers the cluster reported.
    public var brokerCount: Int
    /// The partition count of each topic.
    public var topics: [String: Int]
}

/// A Kafka producer over librdkafka.
///
/// Records are handed to librdkafka without blocking; ``send(topic:partition:key:value:headers:)``
/// awaits the delivery report, ``enqueue(topic:partition:key:value:headers:)`` does not (call
/// ``flush(timeout:)`` to wait for all). A dedicated thread serves librdkafka's delivery callbacks;
/// blocking calls (`flush`, metadata, `destroy`) run on a second one, never on Swift's
/// cooperative pool.
public final class KafkaProducer: Sendable {
    private let client: RDKafkaClient
    private let threads: NIOThreadPool
    private let stopped = NIOLockedValueBox(false)
    /// 1 once the poll loop has returned; `rd_kafka_destroy` must not run while it polls.
    private let pollLoopFinished = ConditionLock(value: 0)
    private let logger: Logger

    /// Creates a producer and starts its delivery-report thread.
    ///
    /// - Throws: ``KafkaError`` with code `.configuration` or `.clientCreation`.
    public init(configuration: KafkaProducerConfiguration, logger: Logger) throws {
        let context = RDKafkaContext(logger: logger)
        self.client = try RDKafkaClient.make(
            type: RD_KAFKA_PRODUCER,
            properties: configuration.librdkafkaProperties,
            context: context
        ) { conf in
            rd_kafka_conf_set_dr_msg_cb(conf) { _, message, opaque in
                guard let message, let opaque else { return }
                let context = Unmanaged<RDKafkaContext>.fromOpaque(opaque).takeUnretainedValue()
                KafkaProducer.deliver(message.pointee, context: context)
            }
        }
        self.logger = logger
        self.threads = NIOThreadPool(numberOfThreads: 2)
        threads.start()
        let client = self.client
        let stopped = self.stopped
        let finished = self.pollLoopFinished
        threads.submit { _ in
            while !stopped.withLockedValue({ $0 }) {
                rd_kafka_poll(client.handle, 100)
            }
            finished.lock()
            finished.unlock(withValue: 1)
        }
    }

    /// Produces one record and waits until the broker acknowledged it.
    ///
    /// - Parameters:
    ///   - topic: The topic to write to.
    ///   - partition: A fixed partition, or `nil` to let the partitioner pick one from the key.
    ///   - key: The record's key; records with the same key go to the same partition.
    ///   - value: The record's value; `nil` produces a tombstone.
    ///   - headers: The record's headers.
    /// - Returns: The partition and offset the record was stored at.
    /// - Throws: ``KafkaError`` `.produce` when librdkafka refuses the record or reports it undelivered.
    @discardableResult
    public func send(
        topic: String,
        partition: Int32? = nil,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: [KafkaHeader] = []
    ) async throws -> KafkaDeliveryReport {
        try await withCheckedThrowingContinuation { continuation in
            let id = client.context.deliveries.withLockedValue { registry in
                let id = registry.nextID
                registry.nextID &+= 1
                registry.waiting[id] = continuation
                return id
            }
            let result = produce(topic: topic, partition: partition, key: key, value: value, headers: headers, id: id)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                let continuation = client.context.deliveries.withLockedValue { $0.waiting.removeValue(forKey: id) }
                continuation?.resume(
                    throwing: KafkaError.rdKafka(result, code: .produce, context: "produce to \(topic)"))
            }
        }
    }

    /// Hands one record to librdkafka without waiting for its delivery report.
    ///
    /// When librdkafka's local queue is full this waits (without blocking a thread) until there is
    /// room. Undelivered records are logged and counted in ``undeliveredCount``.
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
            if result == RD_KAFKA_RESP_ERR_NO_ERROR { return }
            guard result == RD_KAFKA_RESP_ERR__QUEUE_FULL else {
                throw KafkaError.rdKafka(result, code: .produce, context: "produce to \(topic)")
            }
            try await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .milliseconds(50))
        }
    }

    /// Records handed over with ``enqueue(topic:partition:key:value:headers:)`` that librdkafka
    /// reported as not delivered.
    public var undeliveredCount: Int {
        client.context.deliveries.withLockedValue { $0.undelivered }
    }

    /// Waits until every record handed over so far was delivered or failed.
    ///
    /// - Throws: ``KafkaError`` `.timeout` when records are still outstanding after `timeout`.
    public func flush(timeout: Duration = .seconds(30)) async throws {
        let client = self.client
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        let result = try await threads.runIfActive {
            rd_kafka_flush(client.handle, milliseconds)
        }
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(result, code: .timeout, context: "flush")
        }
    }

    /// Asks the cluster for its brokers and topics; a cheap reachability check for readiness.
    ///
    /// - Throws: ``KafkaError`` `.broker` when no broker answered within `timeout`.
    public func metadata(timeout: Duration = .seconds(2)) async throws -> KafkaClusterMetadata {
        let client = self.client
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return try await threads.runIfActive {
            try RDKafkaMetadata.fetch(client.handle, timeoutMilliseconds: milliseconds)
        }
    }

    /// The last error librdkafka reported for this producer (for example all brokers down).
    public var lastError: KafkaError? { client.context.lastError.withLockedValue { $0 } }

    /// Flushes what is outstanding (bounded by `timeout`), stops the poll thread and destroys the handle.
    public func close(timeout: Duration = .seconds(10)) async {
        do {
            try await flush(timeout: timeout)
        } catch {
            logger.warning("producer closed with undelivered records: \(error)")
        }
        stopped.withLockedValue { $0 = true }
        let client = self.client
        let finished = self.pollLoopFinished
        _ = try? await threads.runIfActive {
            finished.lock(whenValue: 1)
            finished.unlock()
            rd_kafka_destroy(client.handle)
        }
        failOutstanding()
        try? await threads.shutdownGracefully()
    }

    private func failOutstanding() {
        let waiting = client.context.deliveries.withLockedValue { registry in
            defer { registry.waiting.removeAll() }
            return registry.waiting
        }
        for continuation in waiting.values {
            continuation.resume(throwing: KafkaError(code: .closed, message: "producer closed before delivery"))
        }
    }

    private func produce(
        topic: String,
        partition: Int32?,
        key: [UInt8]?,
        value: [UInt8]?,
        headers: [KafkaHeader],
        id: UInt
    ) -> rd_kafka_resp_err_t {
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
        let result = topic.withCString { topicName in
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
                    if let headerList {
                        values[6].vtype = RD_KAFKA_VTYPE_HEADERS
                        values[6].u.headers = headerList
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
        if result != RD_KAFKA_RESP_ERR_NO_ERROR, let headerList {
            // Ownership of the headers passes to librdkafka only on success.
            rd_kafka_headers_destroy(headerList)
        }
        return result
    }

    /// Resolves the waiting continuation (if any) of one delivery report. Runs on the poll thread.
    private static func deliver(_ message: rd_kafka_message_t, context: RDKafkaContext) {
        let id = UInt(bitPattern: message._private)
        let failed = message.err != RD_KAFKA_RESP_ERR_NO_ERROR
        let continuation = context.deliveries.withLockedValue { registry in
            if failed && id == 0 { registry.undelivered += 1 }
            return id == 0 ? nil : registry.waiting.removeValue(forKey: id)
        }
        let topic = message.rkt.flatMap { rd_kafka_topic_name($0) }.flatMap { String(validatingCString: $0) } ?? ""
        if failed {
            let error = KafkaError.rdKafka(message.err, code: .produce, context: "delivery to \(topic)")
            if let continuation {
                continuation.resume(throwing: error)
            } else {
                context.logger.error("record not delivered: \(error)")
            }
        } else {
            continuation?.resume(
                returning: KafkaDeliveryReport(
                    topicPartition: TopicPartition(topic: topic, partition: message.partition),
                    offset: message.offset
                )
            )
        }
    }
}

/// Calls `body` with a pointer and count for optional bytes (`nil`, 0 for `nil`).
private func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawPointer?, Int) -> R) -> R {
    guard let bytes else { return body(nil, 0) }
    return bytes.withUnsafeBytes { body($0.baseAddress, $0.count) }
}
