import CRdKafka
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// A pull-based Kafka consumer over librdkafka.
///
/// Every `rd_kafka_*` call of the consumer runs on one dedicated thread (``KafkaConsumerThread``),
/// so librdkafka's callbacks (rebalance, offset commits, errors) run there too, between batches,
/// and may wait for the application's ``KafkaAssignmentHandler``. The cooperative pool never
/// blocks.
///
/// Nothing is fetched unless the application asks for the next batch: librdkafka's prefetch
/// queue is the only buffer, so a slow application slows consumption instead of growing memory.
///
/// The consumer's operations live in focused extensions: assignment (`subscribe`, `assign`,
/// `pause`, rebalances), polling (`poll`), and offsets (`commit`, `committed`, watermarks,
/// `offsets(forTimestamps:timeout:)`).
public final class KafkaConsumer: Sendable {
    let client: RDKafkaClient
    let thread: KafkaConsumerThread
    let state: NIOLockedValueBox<ConsumerState>
    let configuration: KafkaConsumerConfiguration
    let logger: Logger

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
        // A box, not a `Mutex`: the rebalance callback captures it before the consumer exists.
        let state = NIOLockedValueBox(ConsumerState())
        let rebalance = Self.rebalanceCallback(
            handler: assignmentHandler,
            state: state,
            timeout: configuration.assignmentHandlerTimeout,
            logger: logger
        )
        let context = RDKafkaContext(logger: logger, rebalance: rebalance)
        let thread = KafkaConsumerThread()
        do {
            self.client = try await thread.run {
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
                    rd_kafka_conf_set_offset_commit_cb(conf) { _, error, offsets, opaque in
                        guard let opaque else { return }
                        let context = Unmanaged<RDKafkaContext>.fromOpaque(opaque).takeUnretainedValue()
                        KafkaConsumer.commitCompleted(error, offsets: offsets, context: context)
                    }
                }
                rd_kafka_poll_set_consumer(client.handle)
                return client
            }
        } catch {
            await thread.shutdown()
            throw error
        }
        self.thread = thread
        self.state = state
        self.configuration = configuration
        self.logger = logger
    }

    /// The last error librdkafka reported (for readiness), or `nil`.
    public var lastError: KafkaError? { client.context.lastError.withLock { $0 } }

    /// Leaves the group cleanly and destroys the client.
    ///
    /// Work queued before (for example ``commit(_:)``) still runs first; every call after this one
    /// fails with ``KafkaError`` `.closed`. librdkafka 2.0.2 can hang in close after a lost
    /// partition, so a watchdog gives up after the configured `closeTimeout`: the handle and its
    /// thread are then abandoned (leaked) rather than blocking the process's shutdown.
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
        let finished = await thread.finish(timeout: configuration.closeTimeout) {
            let result = rd_kafka_consumer_close(client.handle)
            if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.warning("consumer close: \(String(validatingCString: rd_kafka_err2str(result)) ?? "")")
            }
            rd_kafka_destroy(client.handle)
        }
        if finished {
            await thread.shutdown()
        } else {
            // The context must outlive rd_kafka_destroy, which may still complete later.
            _ = Unmanaged.passRetained(client.context)
            thread.abandon()
            throw KafkaError(
                code: .timeout,
                message: "consumer did not close within \(configuration.closeTimeout); handle abandoned"
            )
        }
    }

    /// Runs `body` with the handle on the consumer's thread.
    ///
    /// - Throws: ``KafkaError`` `.closed` after ``close()``, or what `body` throws.
    func run<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        let client = self.client
        return try await thread.run { try body(client.handle) }
    }
}

/// What the consumer's thread and callers share; short critical sections only.
struct ConsumerState: Sendable {
    var assignment: Set<TopicPartition> = []
    var revokedDuringPoll: Set<TopicPartition> = []
    var handlerFailure: KafkaError? = nil
    var closed = false
}
