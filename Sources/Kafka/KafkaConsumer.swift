import CRdKafka
import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// A pull-based Kafka consumer over librdkafka.
///
/// Every `rd_kafka_*` call of the consumer runs on one dedicated thread, so librdkafka's
/// callbacks (rebalance, errors) run there too, between batches, and may wait for the
/// application's ``KafkaAssignmentHandler``. The cooperative pool never blocks.
///
/// Nothing is fetched unless the application asks for the next batch: librdkafka's prefetch
/// queue is the only buffer, so a slow application slows consumption instead of growing memory.
public final class KafkaConsumer: Sendable {
    private let client: RDKafkaClient
    private let thread: NIOThreadPool
    private let state: NIOLockedValueBox<ConsumerState>
    private let configuration: KafkaConsumerConfiguration
    private let logger: Logger

    /// Creates a consumer. It joins nothing until ``subscribe(topics:)`` or ``assign(_:)``.
    ///
    /// - Parameters:
    ///   - configuration: The consumer's settings.
    ///   - assignmentHandler: Where assigned partitions start; by default their committed offsets.
    ///   - logger: Receives librdkafka's log lines and the consumer's own.
    /// - Throws: ``KafkaError`` with code `.configuration` or `.clientCreation`.
    public init(
        configuration: KafkaConsumerConfiguration,
        assignmentHandler: any KafkaAssignmentHandler = CommittedOffsetsAssignmentHandler(),
        logger: Logger
    ) async throws {
        let state = NIOLockedValueBox(ConsumerState())
        let rebalance = Self.rebalanceCallback(
            handler: assignmentHandler,
            state: state,
            timeout: configuration.assignmentHandlerTimeout,
            logger: logger
        )
        let context = RDKafkaContext(logger: logger, rebalance: rebalance)
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        do {
            self.client = try await thread.runIfActive {
                let client = try RDKafkaClient.make(
                    type: RD_KAFKA_CONSUMER,
                    properties: configuration.librdkafkaProperties,
                    context: context
                ) { conf in
                    rd_kafka_conf_set_rebalance_cb(conf) { handle, error, partitions, opaque in
                        guard let handle, let partitions, let opaque else { return }
                        let context = Unmanaged<RDKafkaContext>.fromOpaque(opaque).takeUnretainedValue()
                        context.rebalance?(handle, error, partitions)
                    }
                }
                rd_kafka_poll_set_consumer(client.handle)
                return client
            }
        } catch {
            try? await thread.shutdownGracefully()
            throw error
        }
        self.thread = thread
        self.state = state
        self.configuration = configuration
        self.logger = logger
    }

    /// Joins the consumer group and subscribes to `topics`; partitions arrive through the
    /// assignment handler during later polls.
    public func subscribe(topics: [String]) async throws {
        try await run { handle in
            let list = RDKafkaClient.makeList(topics.map { (TopicPartition(topic: $0, partition: -1), -1001) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let result = rd_kafka_subscribe(handle, list)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "subscribe to \(topics)")
            }
        }
    }

    /// Assigns partitions by hand, without group membership (no rebalances, no handler calls).
    public func assign(_ partitions: [TopicPartition: KafkaStartOffset]) async throws {
        try await run { [state] handle in
            let list = RDKafkaClient.makeList(
                partitions.sorted { $0.key < $1.key }.map { ($0.key, $0.value.rawOffset) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let result = rd_kafka_assign(handle, list)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .rebalance, context: "assign")
            }
            state.withLockedValue { $0.assignment = Set(partitions.keys) }
        }
    }

    /// Fetches the next batch: up to `maxRecords` records, waiting at most `maxWait` for them.
    ///
    /// Rebalances happen only inside this call. Records of partitions revoked during the call are
    /// dropped from the batch (their new owner reads them again from the stored offsets).
    ///
    /// - Throws: ``KafkaError`` when the client failed fatally, the assignment handler failed, or
    ///   the consumer is closed.
    public func poll(maxRecords: Int, maxWait: Duration) async throws -> KafkaBatch {
        let waitMilliseconds = Self.milliseconds(maxWait)
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

    /// Stops fetching from `partitions` until ``resume(_:)``; their assignment is kept.
    public func pause(_ partitions: [TopicPartition]) async throws {
        try await run { handle in
            let list = RDKafkaClient.makeList(partitions.map { ($0, -1001) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let result = rd_kafka_pause_partitions(handle, list)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "pause \(partitions)")
            }
        }
    }

    /// Resumes fetching from paused `partitions`.
    public func resume(_ partitions: [TopicPartition]) async throws {
        try await run { handle in
            let list = RDKafkaClient.makeList(partitions.map { ($0, -1001) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let result = rd_kafka_resume_partitions(handle, list)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "resume \(partitions)")
            }
        }
    }

    /// Commits next offsets to Kafka asynchronously (for lag monitoring; not the source of truth
    /// when offsets are kept in PostgreSQL).
    public func commit(_ nextOffsets: [TopicPartition: Int64]) async throws {
        guard !nextOffsets.isEmpty else { return }
        try await run { handle in
            let list = RDKafkaClient.makeList(nextOffsets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let result = rd_kafka_commit(handle, list, 1)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "commit")
            }
        }
    }

    /// The partitions currently assigned to this consumer.
    public func assignment() async throws -> [TopicPartition] {
        try await run { handle in
            var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>? = nil
            let result = rd_kafka_assignment(handle, &list)
            guard result == RD_KAFKA_RESP_ERR_NO_ERROR, let list else {
                throw KafkaError.rdKafka(result, code: .consume, context: "assignment")
            }
            defer { rd_kafka_topic_partition_list_destroy(list) }
            return RDKafkaClient.topicPartitions(list).sorted()
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
        let waitMilliseconds = Int32(clamping: Self.milliseconds(timeout))
        return try await run { handle in
            let list = RDKafkaClient.makeList(timestamps.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            defer { rd_kafka_topic_partition_list_destroy(list) }
            let result = rd_kafka_offsets_for_times(handle, list, waitMilliseconds)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                throw KafkaError.rdKafka(result, code: .consume, context: "offsets for times")
            }
            var offsets: [TopicPartition: Int64?] = [:]
            for index in 0..<Int(list.pointee.cnt) {
                let element = list.pointee.elems[index]
                let partition = TopicPartition(
                    topic: String(validatingCString: element.topic) ?? "", partition: element.partition)
                if element.err != RD_KAFKA_RESP_ERR_NO_ERROR {
                    throw KafkaError.rdKafka(element.err, code: .consume, context: "offsets for times of \(partition)")
                }
                offsets[partition] = element.offset >= 0 ? element.offset : Int64?.none
            }
            return offsets
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

    /// The last error librdkafka reported (for readiness), or `nil`.
    public var lastError: KafkaError? { client.context.lastError.withLockedValue { $0 } }

    /// Leaves the group cleanly and destroys the client.
    ///
    /// librdkafka 2.0.2 can hang in close after a lost partition, so a watchdog gives up after the
    /// configured `closeTimeout`: the handle and its thread are then abandoned (leaked) rather than
    /// blocking the process's shutdown.
    ///
    /// - Throws: ``KafkaError`` `.timeout` when the watchdog gave up.
    public func close() async throws {
        let alreadyClosed = state.withLockedValue { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        let client = self.client
        let logger = self.logger
        let finished = await Self.withWatchdog(timeout: configuration.closeTimeout, on: thread) {
            let result = rd_kafka_consumer_close(client.handle)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.warning("consumer close: \(String(validatingCString: rd_kafka_err2str(result)) ?? "")")
            }
            rd_kafka_destroy(client.handle)
        }
        if finished {
            try? await thread.shutdownGracefully()
        } else {
            // The context must outlive rd_kafka_destroy, which may still complete later.
            _ = Unmanaged.passRetained(client.context)
            thread.shutdownGracefully { _ in }
            throw KafkaError(
                code: .timeout,
                message: "consumer did not close within \(configuration.closeTimeout); handle abandoned"
            )
        }
    }

    // MARK: - Internals

    private func run<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        if state.withLockedValue({ $0.closed }) {
            throw KafkaError(code: .closed, message: "consumer is closed")
        }
        let client = self.client
        return try await thread.runIfActive { try body(client.handle) }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Runs `body` on `thread`; returns `false` if it did not finish within `timeout`.
    private static func withWatchdog(
        timeout: Duration,
        on thread: NIOThreadPool,
        _ body: @escaping @Sendable () -> Void
    ) async -> Bool {
        let once = NIOLockedValueBox<CheckedContinuation<Bool, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            once.withLockedValue { $0 = continuation }
            let finish: @Sendable (Bool) -> Void = { value in
                once.withLockedValue { pending in
                    pending?.resume(returning: value)
                    pending = nil
                }
            }
            thread.submit { workState in
                if workState == .active { body() }
                finish(true)
            }
            // A free task only to bridge the timer to the continuation; it ends within `timeout`.
            Task {
                try? await Task.sleep(for: timeout)
                finish(false)
            }
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
            guard let message = rd_kafka_consumer_poll(handle, remaining) else { continue }
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
                if let fatal = context.fatalError.withLockedValue({ $0 }) { throw fatal }
                context.record(error)
                errors.append(error)
                continue
            }
            records.append(copy(message, topic: topic))
        }
        if let fatal = context.fatalError.withLockedValue({ $0 }) { throw fatal }
        let revoked = state.withLockedValue { $0.revokedDuringPoll }
        if !revoked.isEmpty {
            records.removeAll { revoked.contains($0.topicPartition) }
        }
        return KafkaBatch(records: records, errors: errors)
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

    /// The rebalance callback: asks the handler for start offsets and assigns, or reports revocation.
    private static func rebalanceCallback(
        handler: any KafkaAssignmentHandler,
        state: NIOLockedValueBox<ConsumerState>,
        timeout: Duration,
        logger: Logger
    ) -> @Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Void {
        { handle, code, list in
            let cooperative =
                rd_kafka_rebalance_protocol(handle).flatMap { String(validatingCString: $0) } == "COOPERATIVE"
            let partitions = RDKafkaClient.topicPartitions(list)
            switch code {
            case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
                let result = blockingAwait(timeout: timeout) { try await handler.partitionsAssigned(partitions) }
                switch result {
                case .success(let offsets):
                    if let elements = list.pointee.elems {
                        for index in 0..<Int(list.pointee.cnt) {
                            let partition = partitions[index]
                            elements[index].offset = (offsets[partition] ?? .committed).rawOffset
                        }
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
                _ = blockingAwait(timeout: timeout) { await handler.partitionsRevoked(partitions, lost: lost) }
                state.withLockedValue {
                    $0.revokedDuringPoll.formUnion(partitions)
                    $0.assignment.subtract(partitions)
                }
                logger.info(
                    lost ? "partitions lost" : "partitions revoked",
                    metadata: ["partitions": "\(partitions.sorted())"]
                )
                if cooperative {
                    if let error = rd_kafka_incremental_unassign(handle, list) {
                        logger.error(
                            "\(KafkaError.consuming(error, code: .rebalance, context: "incremental unassign"))")
                    }
                } else {
                    _ = rd_kafka_assign(handle, nil)
                }
            default:
                logger.error("rebalance error: \(KafkaError.rdKafka(code, code: .rebalance, context: "rebalance"))")
                _ = rd_kafka_assign(handle, nil)
            }
        }
    }

    private static func assign(
        _ handle: OpaquePointer,
        _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>,
        cooperative: Bool,
        logger: Logger
    ) {
        if cooperative {
            if let error = rd_kafka_incremental_assign(handle, list) {
                logger.error("\(KafkaError.consuming(error, code: .rebalance, context: "incremental assign"))")
            }
        } else {
            let result = rd_kafka_assign(handle, list)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.error("\(KafkaError.rdKafka(result, code: .rebalance, context: "assign"))")
            }
        }
    }
}

/// What the consumer's thread and callers share; short critical sections only.
struct ConsumerState: Sendable {
    var assignment: Set<TopicPartition> = []
    var revokedDuringPoll: Set<TopicPartition> = []
    var handlerFailure: KafkaError? = nil
    var closed = false
}

/// Waits on the current (non-cooperative) thread for an async operation, bounded by `timeout`.
///
/// - Important: call only from a dedicated thread (the consumer's), never from the cooperative
///   pool: it blocks the calling thread.
func blockingAwait<T: Sendable>(
    timeout: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) -> Result<T, any Error> {
    let result = NIOLockedValueBox<Result<T, any Error>?>(nil)
    let semaphore = DispatchSemaphore(value: 0)
    // A free task only to bridge librdkafka's synchronous callback to the async handler.
    let task = Task {
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await operation())
        } catch {
            outcome = .failure(error)
        }
        result.withLockedValue { $0 = outcome }
        semaphore.signal()
    }
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    if semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
        task.cancel()
        return .failure(KafkaError(code: .timeout, message: "handler did not finish within \(timeout)"))
    }
    return result.withLockedValue { $0! }
}
