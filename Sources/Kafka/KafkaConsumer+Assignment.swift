import CRdKafka
import Logging
import NIOConcurrencyHelpers

extension KafkaConsumer {
    /// Joins the consumer group and subscribes to `topics`; partitions arrive through the
    /// assignment handler during later polls.
    ///
    /// - Throws: ``KafkaError`` `.consume` when librdkafka refuses the subscription.
    public func subscribe(topics: [String]) async throws {
        try await run { handle in
            let list = RDKafkaPartitionList(topics: topics)
            let result = rd_kafka_subscribe(handle, list.unsafePointer)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "subscribe to \(topics)")
            }
        }
    }

    /// Assigns partitions by hand, without group membership (no rebalances, no handler calls).
    ///
    /// - Throws: ``KafkaError`` `.rebalance` when librdkafka refuses the assignment.
    public func assign(_ partitions: [TopicPartition: KafkaStartOffset]) async throws {
        try await run { [state] handle in
            let list = RDKafkaPartitionList(partitions.mapValues(\.rawOffset))
            let result = rd_kafka_assign(handle, list.unsafePointer)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .rebalance, context: "assign")
            }
            state.withLockedValue { $0.assignment = Set(partitions.keys) }
        }
    }

    /// Stops fetching from `partitions` until ``resume(_:)``; their assignment is kept.
    public func pause(_ partitions: [TopicPartition]) async throws {
        try await run { handle in
            let list = RDKafkaPartitionList(partitions)
            let result = rd_kafka_pause_partitions(handle, list.unsafePointer)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "pause \(partitions)")
            }
        }
    }

    /// Resumes fetching from paused `partitions`.
    public func resume(_ partitions: [TopicPartition]) async throws {
        try await run { handle in
            let list = RDKafkaPartitionList(partitions)
            let result = rd_kafka_resume_partitions(handle, list.unsafePointer)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "resume \(partitions)")
            }
        }
    }

    /// The partitions currently assigned to this consumer.
    public func assignment() async throws -> [TopicPartition] {
        try await run { handle in
            var pointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>? = nil
            let result = rd_kafka_assignment(handle, &pointer)
            guard result == RD_KAFKA_RESP_ERR_NO_ERROR, let pointer else {
                throw KafkaError.rdKafka(result, code: .consume, context: "assignment")
            }
            let list = RDKafkaPartitionList(adopting: pointer)
            return list.topicPartitions.sorted()
        }
    }

    /// The rebalance callback: asks the handler for start offsets and assigns, or reports revocation.
    ///
    /// Runs on the consumer's thread inside `rd_kafka_consumer_poll` (or close); the list belongs to
    /// librdkafka and is only borrowed.
    static func rebalanceCallback(
        handler: any KafkaAssignmentHandler,
        state: NIOLockedValueBox<ConsumerState>,
        timeout: Duration,
        logger: Logger
    ) -> @Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Void {
        { handle, code, pointer in
            RDKafkaPartitionList.withBorrowed(pointer) { list in
                rebalance(handle, code, list, handler: handler, state: state, timeout: timeout, logger: logger)
            }
        }
    }

    private static func rebalance(
        _ handle: OpaquePointer,
        _ code: rd_kafka_resp_err_t,
        _ list: borrowing RDKafkaPartitionList,
        handler: any KafkaAssignmentHandler,
        state: NIOLockedValueBox<ConsumerState>,
        timeout: Duration,
        logger: Logger
    ) {
        let cooperative =
            rd_kafka_rebalance_protocol(handle).flatMap { String(validatingCString: $0) } == "COOPERATIVE"
        let partitions = list.topicPartitions
        switch code {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
            let result = KafkaConsumerThread.blockingAwait(timeout: timeout) {
                try await handler.partitionsAssigned(partitions)
            }
            switch result {
            case .success(let offsets):
                for (index, partition) in partitions.enumerated() {
                    list.setOffset((offsets[partition] ?? .committed).rawOffset, at: index)
                }
                assign(handle, list, cooperative: cooperative, logger: logger)
                state.withLockedValue { $0.assignment.formUnion(partitions) }
                logger.info("partitions assigned", metadata: ["partitions": "\(partitions.sorted())"])
            case .failure(let error):
                logger.error("assignment handler failed: \(error)")
                state.withLockedValue {
                    $0.handlerFailure = KafkaError(
                        code: .assignmentHandler,
                        message: "assignment handler failed for \(partitions.sorted()): \(error)",
                        isRetriable: true
                    )
                }
            }
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS:
            let lost = rd_kafka_assignment_lost(handle) != 0
            _ = KafkaConsumerThread.blockingAwait(timeout: timeout) {
                await handler.partitionsRevoked(partitions, lost: lost)
            }
            state.withLockedValue {
                $0.revokedDuringPoll.formUnion(partitions)
                $0.assignment.subtract(partitions)
            }
            logger.info(
                lost ? "partitions lost" : "partitions revoked",
                metadata: ["partitions": "\(partitions.sorted())"]
            )
            if cooperative {
                if let error = rd_kafka_incremental_unassign(handle, list.unsafePointer) {
                    logger.error("\(KafkaError.consuming(error, code: .rebalance, context: "incremental unassign"))")
                }
            } else {
                _ = rd_kafka_assign(handle, nil)
            }
        default:
            logger.error("rebalance error: \(KafkaError.rdKafka(code, code: .rebalance, context: "rebalance"))")
            _ = rd_kafka_assign(handle, nil)
        }
    }

    private static func assign(
        _ handle: OpaquePointer,
        _ list: borrowing RDKafkaPartitionList,
        cooperative: Bool,
        logger: Logger
    ) {
        if cooperative {
            if let error = rd_kafka_incremental_assign(handle, list.unsafePointer) {
                logger.error("\(KafkaError.consuming(error, code: .rebalance, context: "incremental assign"))")
            }
        } else {
            let result = rd_kafka_assign(handle, list.unsafePointer)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.error("\(KafkaError.rdKafka(result, code: .rebalance, context: "assign"))")
            }
        }
    }
}
