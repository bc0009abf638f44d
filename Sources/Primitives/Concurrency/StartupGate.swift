import Synchronization

/// A one-way gate between the services of a group: closed at first, opened once, after which
/// every ``wait()`` returns at once.
///
/// The migration service opens it; what writes to the schema (the ingest, the analysts' calendar
/// rewrite, the dev role's seeded history) waits on it, so a role migrates exactly once and never
/// writes into a schema that is not there yet.
public final class StartupGate: Sendable {
    private struct Waiters {
        var isOpen = false
        var next: UInt64 = 0
        var continuations: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(Waiters())

    public init() {}

    /// A gate already open.
    public static func opened() -> StartupGate {
        let gate = StartupGate()
        gate.open()
        return gate
    }

    /// Whether the gate has been opened.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the gate and resumes every waiter (later calls do nothing).
    public func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the gate is open, or as soon as the task is cancelled (check
    /// `Task.isCancelled` or ``isOpen`` afterwards).
    public func wait() async {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    // `Task.isCancelled` is set before the cancellation handler runs, and both take
                    // the lock: a waiter is either resumed here or found and resumed there.
                    if state.isOpen || Task.isCancelled { return true }
                    state.continuations[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.continuations.removeValue(forKey: id) }?.resume()
        }
    }
}
