import Dispatch
import NIOConcurrencyHelpers
import NIOPosix
import Synchronization

/// The one thread that makes every `rd_kafka_*` call of a consumer, so that librdkafka's callbacks
/// (rebalance, offset commit, errors) run there too and may block it, never the cooperative pool.
///
/// Work runs in the order it was accepted. ``finish(timeout:_:)`` accepts the last piece of work
/// (close and destroy) and refuses everything after it, so no call can reach a destroyed handle:
/// acceptance and submission happen under one lock, and the single thread runs them in order.
final class KafkaConsumerThread: Sendable {
    private let pool: NIOThreadPool
    /// `false` once the final work was accepted.
    private let accepting = Mutex(true)

    /// Starts the thread.
    init() {
        self.pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
    }

    /// Runs `body` on the thread and returns its result.
    ///
    /// - Throws: ``KafkaError`` `.closed` once ``finish(timeout:_:)`` was called, or what `body` throws.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = submit { active in
                guard active else {
                    continuation.resume(throwing: KafkaError(code: .closed, message: "consumer is closed"))
                    return
                }
                continuation.resume(with: Result { try body() })
            }
            if !accepted {
                continuation.resume(throwing: KafkaError(code: .closed, message: "consumer is closed"))
            }
        }
    }

    /// Queues `body` behind the work already accepted and returns at once.
    ///
    /// - Returns: `false` when the thread no longer accepts work (the consumer is closing); `body`
    ///   then never runs.
    @discardableResult
    func enqueue(_ body: @escaping @Sendable () -> Void) -> Bool {
        submit { active in
            if active { body() }
        }
    }

    /// Accepts `body` as the last work of the thread, refuses all later work, and waits at most
    /// `timeout` for `body` to finish.
    ///
    /// - Returns: `false` if `body` did not finish in time (it may still finish later), or if the
    ///   final work had already been accepted before.
    func finish(timeout: Duration, _ body: @escaping @Sendable () -> Void) async -> Bool {
        // Boxes, not `Mutex`es, here and below: escaping closures capture them.
        let once = NIOLockedValueBox<CheckedContinuation<Bool, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            once.withLockedValue { $0 = continuation }
            let resume: @Sendable (Bool) -> Void = { value in
                once.withLockedValue { pending in
                    pending?.resume(returning: value)
                    pending = nil
                }
            }
            let accepted = accepting.withLock { accepting in
                guard accepting else { return false }
                accepting = false
                pool.submit { state in
                    if state == .active { body() }
                    resume(true)
                }
                return true
            }
            guard accepted else {
                resume(false)
                return
            }
            // A free task only to bridge the timer to the continuation; it ends within `timeout`.
            Task {
                try? await Task.sleep(for: timeout)
                resume(false)
            }
        }
    }

    /// Stops the thread once its queued work is done (or, if it hangs, leaves it behind).
    func shutdown() async {
        try? await pool.shutdownGracefully()
    }

    /// Stops the thread without waiting: for a thread stuck in librdkafka, which is abandoned.
    func abandon() {
        pool.shutdownGracefully { _ in }
    }

    private func submit(_ work: @escaping @Sendable (_ active: Bool) -> Void) -> Bool {
        accepting.withLock { accepting in
            guard accepting else { return false }
            pool.submit { state in work(state == .active) }
            return true
        }
    }

    /// Waits on the current (non-cooperative) thread for an async operation, bounded by `timeout`.
    ///
    /// librdkafka's callbacks are synchronous; this is how the rebalance callback waits for the
    /// application's async assignment handler.
    ///
    /// - Important: call only on the consumer's own thread, never on the cooperative pool: it blocks
    ///   the calling thread.
    static func blockingAwait<T: Sendable>(
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
        if semaphore.wait(timeout: .now() + .nanoseconds(Int(clamping: timeout.nanoseconds))) == .timedOut {
            task.cancel()
            return .failure(KafkaError(code: .timeout, message: "handler did not finish within \(timeout)"))
        }
        return result.withLockedValue { $0! }
    }
}
