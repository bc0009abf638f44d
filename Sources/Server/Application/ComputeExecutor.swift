import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Threads of their own for the CPU-heavy work of requests (a staffing plan, a reforecast): a
/// task executor over a NIO thread pool, which a task prefers with `withTaskExecutorPreference`
/// (``CallerBudget`` does for each turn it gives).
///
/// The hook's requests run on Swift's cooperative pool, one thread per core. A month's plan for
/// twenty queues is about a second of one core with no suspension point in it: on the cooperative
/// pool it would hold a thread that long, and every hook request queued behind it would wait for
/// it. On a thread of this pool it is one more thread the kernel shares the cores among; and its
/// threads bound how many cores such work takes at once. On Linux its threads also run at a lower
/// priority (nice ``niceness``): when the cores are contended, the kernel gives them to the hook
/// first, which is on a caller's phone call, and the plan waits the milliseconds it can afford.
public final class ComputeExecutor: TaskExecutor {
    /// The threads the work runs on.
    public let threads: Int
    /// The nice value of the threads (Linux; 0 is a thread's default, 19 the lowest priority).
    public static let niceness: Int32 = 10
    private let pool: NIOThreadPool
    /// Set on a pool thread once its priority is lowered.
    private let lowered = ThreadSpecificVariable<Marker>()

    private final class Marker: Sendable {}

    /// - Parameter threads: How many threads; by default one fewer than the cores (at least
    ///   one), so that such work always leaves a core to the rest of the process.
    public init(threads: Int = max(1, System.coreCount - 1)) {
        precondition(threads > 0)
        self.threads = threads
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let lowered = lowered
        // A job is run whatever the pool's state: after a shutdown the pool calls this at once,
        // and the task still ends instead of waiting forever.
        pool.submit { _ in
            if lowered.currentValue == nil {
                Self.lowerPriority()
                lowered.currentValue = Marker()
            }
            job.runSynchronously(on: executor)
        }
    }

    /// Lowers the calling thread's priority: on Linux the nice value is the thread's own, and
    /// `setpriority(PRIO_PROCESS, 0, _)` sets the caller's.
    private static func lowerPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}
