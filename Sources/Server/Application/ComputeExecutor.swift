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
/// threads bound how many cores such work takes at once. On Linux its threads run under
/// `SCHED_IDLE`: a thread of any other policy that wakes (the hook's, on a caller's phone call)
/// preempts them at once instead of waiting out their time slice, and they take the cores only
/// while nothing else wants them. A nice value (``niceness``) only weighs their share, so a waking
/// hook thread could still wait up to a slice behind one; under sustained load from the rest of
/// the process a plan waits, which it can afford. Where the kernel refuses `SCHED_IDLE`, the
/// threads stay at nice ``niceness``.
public final class ComputeExecutor: TaskExecutor {
    /// The threads the work runs on.
    public let threads: Int
    /// The nice value of the threads (Linux; 0 is a thread's default, 19 the lowest priority),
    /// which weighs them where `SCHED_IDLE` is refused.
    public static let niceness: Int32 = 10
    /// Linux's `SCHED_IDLE` policy (`<linux/sched.h>`; Glibc's module leaves the macro out).
    public static let idlePolicy: Int32 = 5
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

    /// Lowers the calling thread's priority: on Linux the nice value and the policy are the
    /// thread's own, and `setpriority(PRIO_PROCESS, 0, _)` and `sched_setscheduler(0, _, _)` set
    /// the caller's. Lowering needs no privilege.
    private static func lowerPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            var parameter = sched_param(sched_priority: 0)
            _ = sched_setscheduler(0, idlePolicy, &parameter)
        #endif
    }
}
