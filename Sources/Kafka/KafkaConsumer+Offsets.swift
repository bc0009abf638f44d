import CRdKafka

extension KafkaConsumer {
    /// Commits next offsets to Kafka asynchronously (for lag monitoring; not the source of truth
    /// when offsets are kept in PostgreSQL).
    public func commit(_ nextOffsets: [TopicPartition: Int64]) async throws {
        guard !nextOffsets.isEmpty else { return }
        try await run { handle in
            let list = RDKafkaPartitionList(nextOffsets)
            let result = rd_kafka_commit(handle, list.unsafePointer, 1)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "commit")
            }
        }
    }

    /// The earliest offset of each partition whose record timestamp is at or after the given
    /// time, asked of the partition leaders (`rd_kafka_offsets_for_times`); blocks this
    /// consumer's thread for at most `timeout`.
    ///
    /// - Parameter timestamps: Milliseconds since 1970 per partition.
    /// - Returns: Per partition, the offset, or `nil` when the broker has no such record: every
    ///   record is older, or the broker cannot look timestamps up (librdkafka 2.0.2's mock cluster
    ///   answers "none" for every timestamp). Starting at the beginning instead is always correct.
    /// - Throws: ``KafkaError`` when the lookup failed or timed out as a whole.
    public func offsets(
        forTimestamps timestamps: [TopicPartition: Int64], timeout: Duration
    ) async throws -> [TopicPartition: Int64?] {
        guard !timestamps.isEmpty else { return [:] }
        let waitMilliseconds = timeout.milliseconds32
        return try await run { handle in
            let list = RDKafkaPartitionList(timestamps)
            let result = rd_kafka_offsets_for_times(handle, list.unsafePointer, waitMilliseconds)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "offsets for times")
            }
            return try Self.offsetsOrNone(list.entries, context: "offsets for times")
        }
    }

    /// The low and high watermarks librdkafka last saw for a partition (no network call), for lag.
    public func watermarks(_ partition: TopicPartition) async throws -> (low: Int64, high: Int64)? {
        try await run { handle in
            var low: Int64 = -1
            var high: Int64 = -1
            let result = rd_kafka_get_watermark_offsets(handle, partition.topic, partition.partition, &low, &high)
            return result == RD_KAFKA_RESP_ERR_NO_ERROR && high >= 0 ? (low, high) : nil
        }
    }

    /// Per partition, the offset of a lookup's answer, or `nil` for a negative (logical) offset.
    ///
    /// - Throws: ``KafkaError`` `.consume` for the first partition that failed.
    private static func offsetsOrNone(
        _ entries: [RDKafkaPartitionList.Entry], context: String
    ) throws -> [TopicPartition: Int64?] {
        var offsets: [TopicPartition: Int64?] = [:]
        for entry in entries {
            if entry.error != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(entry.error, code: .consume, context: "\(context) of \(entry.topicPartition)")
            }
            offsets.updateValue(entry.offset >= 0 ? entry.offset : nil, forKey: entry.topicPartition)
        }
        return offsets
    }
}
