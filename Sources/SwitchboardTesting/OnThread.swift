import Foundation
import Synchronization

/// Runs `body` on a new thread and returns its result: blocking calls (a socket's, `waitpid`)
/// stay off the cooperative pool.
///
/// The result reaches the caller when its task runs again, which on a loaded pool can be
/// seconds later: a probe that times something takes its instants inside `body`.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Starts `body` on a new thread at once, before the caller's task next suspends; the result
/// is awaited later. A close is seen when it happens even if the awaiting task is not
/// scheduled for seconds (a child task or `async let` would start only when the pool has a
/// free thread).
public func startOnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
    let result = ThreadResult<T>()
    Thread.detachNewThread { result.deliver(body()) }
    return result
}

/// The result of a ``startOnThread(_:)`` body, delivered once.
public final class ThreadResult<T: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<T, Never>)
        case delivered(T)
    }
    private let state = Mutex<State>(.pending)

    fileprivate init() {}

    fileprivate func deliver(_ value: T) {
        let waiter = state.withLock { state -> CheckedContinuation<T, Never>? in
            defer { state = .delivered(value) }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// The result, once `body` has returned it.
    public var value: T {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> T? in
                    if case .delivered(let value) = state { return value }
                    state = .waiting(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
