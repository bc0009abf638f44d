import CRdKafka
import Synchronization

/// What became of the offsets a consumer committed to Kafka with ``KafkaConsumer/commit(_:)``.
///
/// Kafka's copy of the offsets serves tooling (`kafka-consumer-groups.sh`, Burrow, KEDA); the
/// ingest's truth stays in PostgreSQL, so failures are counted here and logged, never thrown.
public struct KafkaCommitStatistics: Sendable {
    /// Commits handed to librdkafka.
    public var requested = 0
    /// Commits the group coordinator acknowledged.
    public var succeeded = 0
    /// Commits that failed: refused by librdkafka, rejected by the coordinator (in whole or for a
    /// partition), or dropped because the consumer was closing.
    public var failed = 0
    /// The most recent failure.
    public var lastError: KafkaError?

    /// Creates empty statistics.
    public init() {}
}

extension KafkaConsumer {
    /// Commits next offsets to Kafka, for tooling that reads a group's lag from Kafka; returns at
    /// once and never throws.
    ///
    /// The commit is queued to the consumer's thread behind whatever it is doing and sent with
    /// librdkafka's asynchronous commit, so the caller's batch path never waits for the broker.
    /// The result arrives during a later ``poll(maxRecords:maxWait:)`` (or ``close()``) and is
    /// counted in ``commitStatistics``; failures are also logged. Commits queued before ``close()``
    /// are sent before the consumer leaves the group.
    ///
    /// - Important: Kafka's copy is not the truth for exactly-once ingest: the offsets stored in
    ///   PostgreSQL are. A commit may be lost or arrive after a newer one failed; the next commit
    ///   repairs it.
    /// - Parameter nextOffsets: Per partition, the offset of the next record to read (last
    ///   processed offset + 1).
    public func commit(_ nextOffsets: [TopicPartition: Int64]) {
        guard !nextOffsets.isEmpty else { return }
        let client = self.client
        let accepted = thread.enqueue {
            let list = RDKafkaPartitionList(nextOffsets)
            let result = rd_kafka_commit(client.handle, list.unsafePointer, 1)
            if result == RD_KAFKA_RESP_ERR_NO_ERROR {
                client.context.commits.withLock { $0.requested += 1 }
            } else {
                Self.commitFailed(
                    KafkaError.rdKafka(result, code: .consume, context: "offset commit"), context: client.context)
            }
        }
        if !accepted {
            Self.commitFailed(
                KafkaError(code: .closed, message: "offset commit dropped: consumer is closed"), context: client.context
            )
        }
    }

    /// What became of the commits sent with ``commit(_:)`` so far.
    public var commitStatistics: KafkaCommitStatistics { client.context.commits.withLock { $0 } }

    /// The offsets the consumer group has committed to Kafka for `partitions`, asked of the group
    /// coordinator (`rd_kafka_committed`); blocks this consumer's thread for at most `timeout`.
    ///
    /// - Returns: Per partition, the committed next offset, or `nil` when the group has committed
    ///   none.
    /// - Throws: ``KafkaError`` `.consume` when the lookup failed or timed out, as a whole or for a
    ///   partition.
    public func committed(_ partitions: [TopicPartition], timeout: Duration) async throws -> [TopicPartition: Int64?] {
        guard !partitions.isEmpty else { return [:] }
        let waitMilliseconds = timeout.milliseconds32
        return try await run { handle in
            let list = RDKafkaPartitionList(Set(partitions).sorted())
            let result = rd_kafka_committed(handle, list.unsafePointer, waitMilliseconds)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "committed offsets")
            }
            return try Self.offsetsOrNone(list.entries, context: "committed offset")
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

    /// librdkafka's offset commit callback: counts and logs the result of one commit. Runs on the
    /// consumer's thread; the list belongs to librdkafka.
    static func commitCompleted(
        _ code: rd_kafka_resp_err_t,
        offsets: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?,
        context: RDKafkaContext
    ) {
        let failedPartitions =
            offsets.map { pointer in
                RDKafkaPartitionList.withBorrowed(pointer) { list in
                    list.entries.filter { $0.error != RD_KAFKA_RESP_ERR_NO_ERROR }
                }
            } ?? []
        // _NO_OFFSET: nothing needed committing, which is not a failure.
        if code != RD_KAFKA_RESP_ERR_NO_ERROR && code != RD_KAFKA_RESP_ERR__NO_OFFSET {
            commitFailed(KafkaError.rdKafka(code, code: .consume, context: "offset commit"), context: context)
        } else if let first = failedPartitions.first {
            commitFailed(
                KafkaError.rdKafka(first.error, code: .consume, context: "offset commit of \(first.topicPartition)"),
                context: context
            )
        } else {
            context.commits.withLock { $0.succeeded += 1 }
        }
    }

    private static func commitFailed(_ error: KafkaError, context: RDKafkaContext) {
        context.commits.withLock {
            $0.failed += 1
            $0.lastError = error
        }
        context.logger.warning("Kafka offset commit failed (for tooling only; PostgreSQL keeps the offsets): \(error)")
    }
}
