import CRdKafka

/// Where and when a record was stored by the broker.
public struct KafkaDeliveryReport: Sendable, Hashable {
    /// The topic and partition the record was written to.
    public var topicPartition: TopicPartition
    /// The record's offset in that partition.
    public var offset: Int64
}

extension KafkaProducer {
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
            let id = client.context.deliveries.withLockedValue { registry in
                let id = registry.nextID
                registry.nextID &+= 1
                registry.waiting[id] = continuation
                return id
            }
            let result = produce(topic: topic, partition: partition, key: key, value: value, headers: headers, id: id)
            if let error = result.error(topic: topic) {
                let continuation = client.context.deliveries.withLockedValue { $0.waiting.removeValue(forKey: id) }
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
        let result = state.withLockedValue { state -> ProduceResult in
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
