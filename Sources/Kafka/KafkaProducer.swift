import CRdKafka
import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import ServiceLifecycle
import Synchronization

/// A summary of the cluster as seen through a client's metadata request.
public struct KafkaClusterMetadata: Sendable, Hashable {
    /// The number of brokers the cluster reported.
    public var brokerCount: Int
    /// The partition count of each topic.
    public var topics: [String: Int]
}

/// A Kafka producer over librdkafka, run as a swift-service-lifecycle `Service`.
///
/// ``run()`` serves librdkafka's delivery reports on a dedicated thread until graceful shutdown
/// or cancellation. On graceful shutdown it refuses new records, flushes what is outstanding
/// (bounded by ``KafkaProducerConfiguration/shutdownFlushTimeout``) and destroys the handle; on
/// cancellation it destroys the handle at once. Either way, records still undelivered then fail:
/// ``send(topic:partition:key:value:headers:)`` throws, ``enqueue(topic:partition:key:value:headers:)``
/// counts them in ``undeliveredCount``. Afterwards every call throws ``KafkaError`` `.closed`.
///
/// In a `ServiceGroup`, list the producer before the services that produce through it: the
/// group shuts services down in reverse order, so the producer flushes after they stopped.
///
/// Records may be produced before ``run()`` starts: librdkafka queues them (and sends them, since
/// its own threads do the network work), and their delivery reports, which `send` awaits, arrive
/// once ``run()`` polls. ``metadata(timeout:)`` and ``flush(timeout:)`` work before and while it
/// runs; blocking calls go to a serial queue of the producer's own, never the cooperative pool.
///
/// A producer whose ``run()`` never started is destroyed when released, dropping what it queued.
public final class KafkaProducer: Service, Sendable {
    let client: RDKafkaClient
    let state = Mutex(ProducerState())
    let logger: Logger
    private let configuration: KafkaProducerConfiguration
    /// Blocking calls (flush, metadata) in order, and last the shutdown that destroys the handle:
    /// it is queued under `state`'s lock as calls stop being accepted, so it runs after them all.
    private let calls = DispatchQueue(label: "switchboard.kafka.producer.calls")

    /// Creates a producer. Nothing is polled until ``run()``.
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
        self.configuration = configuration
        self.logger = logger
    }

    deinit {
        // run() destroys the handle; one that never ran is destroyed here. Nothing else can use
        // the handle now: every call retains the producer while it runs.
        if state.withLock({ $0.phase == .created }) {
            rd_kafka_destroy(client.handle)
        }
    }

    /// Serves delivery reports until graceful shutdown or cancellation, then shuts the producer down.
    ///
    /// - Throws: ``KafkaError`` `.closed` when called a second time: a producer runs once.
    public func run() async throws {
        try state.withLock { state in
            guard state.phase == .created else {
                throw KafkaError(code: .closed, message: "producer already ran; run() may be called once")
            }
            state.phase = .running
        }
        // A box, not a `Mutex`: the poll thread's closure captures it.
        let stop = NIOLockedValueBox(false)
        let pollThread = NIOThreadPool(numberOfThreads: 1)
        pollThread.start()
        let client = self.client
        await withTaskCancellationOrGracefulShutdownHandler {
            // Delivery reports and error callbacks run on this thread, inside rd_kafka_poll.
            try? await pollThread.runIfActive {
                while !stop.withLockedValue({ $0 }) {
                    rd_kafka_poll(client.handle, 100)
                }
            }
        } onCancelOrGracefulShutdown: {
            stop.withLockedValue { $0 = true }
        }
        try? await pollThread.shutdownGracefully()
        await shutDown(flushingFor: Task.isCancelled ? nil : configuration.shutdownFlushTimeout)
    }

    /// Records handed over with ``enqueue(topic:partition:key:value:headers:)`` that librdkafka
    /// reported as not delivered (including those still outstanding at shutdown).
    public var undeliveredCount: Int {
        client.context.deliveries.withLock { $0.undelivered }
    }

    /// The last error librdkafka reported for this producer (for example all brokers down), as
    /// served by ``run()``.
    public var lastError: KafkaError? { client.context.lastError.withLock { $0 } }

    /// Waits until every record handed over so far was delivered or failed.
    ///
    /// librdkafka serves delivery reports inside the flush too, so a producer that only enqueues
    /// and flushes (a one-shot tool) works without ``run()``; it is destroyed when released.
    ///
    /// - Throws: ``KafkaError`` `.timeout` when records are still outstanding after `timeout`;
    ///   `.closed` once the producer shut down.
    public func flush(timeout: Duration = .seconds(30)) async throws {
        let milliseconds = timeout.milliseconds32
        let result = try await blockingCall { handle in rd_kafka_flush(handle, milliseconds) }
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(result, code: .timeout, context: "flush")
        }
    }

    /// Asks the cluster for its brokers and topics; a cheap reachability check for readiness.
    ///
    /// - Throws: ``KafkaError`` `.broker` when no broker answered within `timeout`; `.closed` once
    ///   the producer shut down.
    public func metadata(timeout: Duration = .seconds(2)) async throws -> KafkaClusterMetadata {
        let milliseconds = timeout.milliseconds32
        return try await blockingCall { handle in
            try RDKafkaMetadata.fetch(handle, timeoutMilliseconds: milliseconds)
        }
    }

    /// Runs a blocking librdkafka call on the producer's serial queue.
    private func blockingCall<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = state.withLock { state in
                guard state.phase != .stopped else { return false }
                // Captures the producer, so the handle outlives the call.
                calls.async { continuation.resume(with: Result { try body(self.client.handle) }) }
                return true
            }
            if !accepted {
                continuation.resume(throwing: KafkaError(code: .closed, message: "producer is shut down"))
            }
        }
    }

    /// Refuses further records and calls, flushes (unless `timeout` is `nil`), fails what is left
    /// and destroys the handle, after every blocking call accepted before.
    private func shutDown(flushingFor timeout: Duration?) async {
        let client = self.client
        let logger = self.logger
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { state in
                state.phase = .stopped
                calls.async {
                    if let timeout, rd_kafka_flush(client.handle, timeout.milliseconds32) != RD_KAFKA_RESP_ERR_NO_ERROR
                    {
                        logger.error(
                            "producer shutting down with records undelivered after \(timeout)",
                            metadata: ["outstanding": "\(rd_kafka_outq_len(client.handle))"]
                        )
                    }
                    // Whatever is still queued or in flight fails now, through its delivery report.
                    _ = rd_kafka_purge(client.handle, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT)
                    while rd_kafka_poll(client.handle, 0) > 0 {}
                    rd_kafka_destroy(client.handle)
                    continuation.resume()
                }
            }
        }
        // Records whose delivery report never came (none should remain) fail too.
        let (waiting, batches) = client.context.deliveries.withLock { registry in
            defer {
                registry.waiting.removeAll()
                registry.batches.removeAll()
            }
            return (registry.waiting, registry.batches)
        }
        let closed = KafkaError(code: .closed, message: "producer shut down before delivery")
        for continuation in waiting.values {
            continuation.resume(throwing: closed)
        }
        for batch in batches.values {
            var outcome = batch.outcome
            outcome.failed += batch.remaining
            if outcome.firstError == nil { outcome.firstError = closed }
            batch.continuation.resume(returning: outcome)
        }
    }
}

/// Where a producer is in its life; guarded by the producer's lock.
struct ProducerState: Sendable {
    enum Phase: Sendable {
        /// Created; records queue in librdkafka until ``KafkaProducer/run()`` polls.
        case created
        /// ``KafkaProducer/run()`` polls.
        case running
        /// Shutting down or shut down: records and calls are refused.
        case stopped
    }

    var phase = Phase.created

    /// Whether new records are accepted.
    var acceptsRecords: Bool { phase != .stopped }
}
