import CRdKafka
import Dispatch
import NIOConcurrencyHelpers
import Synchronization

extension KafkaConsumer {
    /// Fetches the next batch: up to `maxRecords` records, waiting at most `maxWait` for them.
    ///
    /// Rebalances happen only inside this call. Records of a partition that were fetched before it
    /// was revoked during the call are dropped from the batch (its new owner reads them again from
    /// the stored offsets); records fetched after it was assigned again, in the same call, are kept. Results
    /// of ``commit(_:)`` are counted here too.
    ///
    /// - Throws: ``KafkaError`` when the client failed fatally, the assignment handler failed, or
    ///   the consumer is closed.
    public func poll(maxRecords: Int, maxWait: Duration) async throws -> KafkaBatch {
        let waitMilliseconds = Int(maxWait.milliseconds32)
        return try await run { [state, client] handle in
            try Self.pollBatch(
                handle,
                context: client.context,
                state: state,
                maxRecords: maxRecords,
                waitMilliseconds: waitMilliseconds
            )
        }
    }

    private static func pollBatch(
        _ handle: OpaquePointer,
        context: RDKafkaContext,
        state: NIOLockedValueBox<ConsumerState>,
        maxRecords: Int,
        waitMilliseconds: Int
    ) throws -> KafkaBatch {
        state.withLockedValue { $0.revokedDuringPoll.removeAll() }
        var records: [KafkaRecord] = []
        records.reserveCapacity(min(maxRecords, 10_000))
        var errors: [KafkaError] = []
        var topicNames: [OpaquePointer: String] = [:]
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(waitMilliseconds, 0)) * 1_000_000
        var firstPoll = true
        while records.count < maxRecords {
            if let failure = state.withLockedValue({ $0.handlerFailure }) { throw failure }
            let now = DispatchTime.now().uptimeNanoseconds
            // At least one poll per batch, so that callbacks are served even with `maxWait` zero.
            if now >= deadline && !firstPoll { break }
            firstPoll = false
            let remaining = now < deadline ? Int32(min((deadline - now) / 1_000_000, 100)) : 0
            let message = rd_kafka_consumer_poll(handle, remaining)
            // A rebalance callback runs inside rd_kafka_consumer_poll, before the message (if any)
            // that the same call returns: drop what was collected before a revocation, keep what
            // comes after, even for partitions assigned back meanwhile (lost, then re-joined), whose
            // position is past the dropped records already.
            dropRevoked(from: &records, state: state)
            guard let message else { continue }
            defer { rd_kafka_message_destroy(message) }
            let topicHandle = message.pointee.rkt
            var topic = ""
            if let topicHandle {
                if let name = topicNames[topicHandle] {
                    topic = name
                } else {
                    topic = String(validatingCString: rd_kafka_topic_name(topicHandle)) ?? ""
                    topicNames[topicHandle] = topic
                }
            }
            let code = message.pointee.err
            if code != RD_KAFKA_RESP_ERR_NO_ERROR {
                if code == RD_KAFKA_RESP_ERR__PARTITION_EOF { continue }
                let error = KafkaError.rdKafka(
                    code,
                    code: .consume,
                    context: "\(topic)[\(message.pointee.partition)] at offset \(message.pointee.offset)"
                )
                if let fatal = context.fatalError.withLock({ $0 }) { throw fatal }
                context.record(error)
                errors.append(error)
                continue
            }
            records.append(copy(message, topic: topic))
        }
        if let fatal = context.fatalError.withLock({ $0 }) { throw fatal }
        return KafkaBatch(records: records, errors: errors)
    }

    /// Removes the records of partitions revoked since the last check.
    private static func dropRevoked(from records: inout [KafkaRecord], state: NIOLockedValueBox<ConsumerState>) {
        let revoked = state.withLockedValue { state in
            defer { state.revokedDuringPoll.removeAll() }
            return state.revokedDuringPoll
        }
        if !revoked.isEmpty {
            records.removeAll { revoked.contains($0.topicPartition) }
        }
    }

    /// Copies a message out of librdkafka's buffers.
    ///
    /// - Important: takes the original pointer: librdkafka finds headers and timestamps through the
    ///   message's enclosing internal struct, so a copy of `rd_kafka_message_t` would lose them.
    private static func copy(_ pointer: UnsafeMutablePointer<rd_kafka_message_t>, topic: String) -> KafkaRecord {
        let message = pointer.pointee
        var key: [UInt8]? = nil
        if let pointer = message.key {
            key = Array(UnsafeRawBufferPointer(start: pointer, count: message.key_len))
        }
        var value: [UInt8]? = nil
        if let pointer = message.payload {
            value = Array(UnsafeRawBufferPointer(start: pointer, count: message.len))
        }
        var headers: [KafkaHeader] = []
        var headerList: OpaquePointer? = nil
        if rd_kafka_message_headers(pointer, &headerList) == RD_KAFKA_RESP_ERR_NO_ERROR, let headerList {
            var index = 0
            var name: UnsafePointer<CChar>? = nil
            var valuePointer: UnsafeRawPointer? = nil
            var size = 0
            while rd_kafka_header_get_all(headerList, index, &name, &valuePointer, &size) == RD_KAFKA_RESP_ERR_NO_ERROR
            {
                let headerValue = valuePointer.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }
                headers.append(
                    KafkaHeader(key: name.flatMap { String(validatingCString: $0) } ?? "", value: headerValue))
                index += 1
            }
        }
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(pointer, &timestampType)
        return KafkaRecord(
            topicPartition: TopicPartition(topic: topic, partition: message.partition),
            offset: message.offset,
            key: key,
            value: value,
            headers: headers,
            timestampMilliseconds: timestamp >= 0 ? timestamp : nil
        )
    }
}
