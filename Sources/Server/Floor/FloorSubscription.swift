import Synchronization

/// One client's place in the floor stream: a bounded queue the publisher fills and the
/// connection drains.
///
/// The publisher only ever appends, and never waits: when the queue is full it is emptied and
/// the subscription is marked to receive a fresh snapshot, so a client that stops reading costs
/// a bounded amount of memory and never delays the publisher or the other clients.
public final class FloorSubscription: Sendable {
    /// What the connection reads next.
    public enum Next: Sendable, Hashable {
        /// Messages to send, in order.
        case messages([FloorMessage])
        /// The queue overflowed: ask the publisher for a fresh snapshot
        /// (``FloorPublisher/resnapshot(_:)``), which also resumes the deltas after it.
        case resnapshot
    }

    private struct State {
        var queue: [FloorMessage] = []
        var needsSnapshot = false
        var finished = false
        var waiter: CheckedContinuation<Next?, Never>? = nil
    }

    /// A unique id, for the publisher's table.
    let id: UInt64
    /// How many messages may wait before the queue is dropped.
    let capacity: Int
    private let state = Mutex(State())

    init(id: UInt64, capacity: Int) {
        self.id = id
        self.capacity = max(1, capacity)
    }

    /// Appends a message; empties the queue and marks a resnapshot on overflow.
    ///
    /// - Returns: `false` when this message overflowed the queue (it was dropped with the rest).
    @discardableResult
    func push(_ message: FloorMessage) -> Bool {
        let (waiter, next, accepted): (CheckedContinuation<Next?, Never>?, Next?, Bool) = state.withLock { state in
            guard !state.finished, !state.needsSnapshot else { return (nil, nil, true) }
            if state.queue.count >= capacity {
                state.queue.removeAll()
                state.needsSnapshot = true
                let waiter = state.waiter
                state.waiter = nil
                return (waiter, waiter == nil ? nil : .resnapshot, false)
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, .messages([message]), true)
            }
            state.queue.append(message)
            return (nil, nil, true)
        }
        if let waiter { waiter.resume(returning: next) }
        return accepted
    }

    /// Replaces whatever is queued by `messages` and clears the resnapshot mark (the publisher
    /// calls this on its serial path, so no delta can slip in between).
    func reset(to messages: [FloorMessage]) {
        let waiter: CheckedContinuation<Next?, Never>? = state.withLock { state in
            state.needsSnapshot = false
            guard !state.finished else { return nil }
            if let waiter = state.waiter, !messages.isEmpty {
                state.waiter = nil
                state.queue.removeAll()
                return waiter
            }
            state.queue = messages
            return nil
        }
        waiter?.resume(returning: .messages(messages))
    }

    /// Ends the subscription: what was queued is dropped and ``next()`` returns `nil`.
    func finish() {
        let waiter: CheckedContinuation<Next?, Never>? = state.withLock { state in
            state.finished = true
            state.queue.removeAll()
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the subscription has ended.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// What ``next()`` would return now, without waiting: `nil` when nothing is queued.
    func poll() -> Next? {
        state.withLock { state in
            if state.needsSnapshot { return .resnapshot }
            guard !state.finished, !state.queue.isEmpty else { return nil }
            defer { state.queue.removeAll(keepingCapacity: true) }
            return .messages(state.queue)
        }
    }

    /// The messages queued now (all of them), a resnapshot request, or `nil` once finished or
    /// cancelled. Waits while the queue is empty.
    public func next() async -> Next? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Next?, Never>) in
                let ready: Next?? = state.withLock { state in
                    if state.finished || Task.isCancelled { return .some(nil) }
                    if state.needsSnapshot { return .some(.resnapshot) }
                    if !state.queue.isEmpty {
                        defer { state.queue.removeAll(keepingCapacity: true) }
                        return .some(.messages(state.queue))
                    }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
