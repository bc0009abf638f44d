import Hummingbird
import Synchronization

/// How many expensive requests (a staffing plan, a reforecast, an MCP call) one caller may have
/// at once: ``concurrent`` run, up to ``waiting`` more wait their turn in order, and any further
/// one is refused at once (`429`). A caller is its credential (a console token, an MCP bearer),
/// or its address when the surface is open: one caller then holds at most ``concurrent`` of the
/// database connections and cores the others share.
public final class CallerBudget: Sendable {
    /// Requests of one caller that run at once.
    public let concurrent: Int
    /// Requests of one caller that may wait for a turn.
    public let waiting: Int
    /// Where each turn's work runs (``ComputeExecutor``); `nil`: where its caller runs.
    public let executor: (any TaskExecutor)?

    private struct Caller {
        var running = 0
        var queue: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private struct State {
        var callers: [String: Caller] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The caller of the turn running (``run(for:_:)`` sets it), for a budget taken below its
    /// route: an MCP tool call that reforecasts takes its turn from the staffing budget as the
    /// caller's `GET /v1/staffing/intraday` does. `nil` outside a turn (tests, the process's own work).
    @TaskLocal public static var caller: String?

    public init(concurrent: Int = 1, waiting: Int = 4, executor: (any TaskExecutor)? = nil) {
        precondition(concurrent > 0 && waiting >= 0)
        self.concurrent = concurrent
        self.waiting = waiting
        self.executor = executor
    }

    /// Runs `body` within `caller`'s budget, on ``executor``, with ``caller`` set to `caller`.
    /// - Throws: ``APIError`` 429 when `caller` already has ``concurrent`` running and
    ///   ``waiting`` waiting, `CancellationError` when the request went away while it waited, or
    ///   what `body` throws.
    @discardableResult
    public func run<T: Sendable>(for caller: String, _ body: () async throws -> T) async throws -> T {
        guard await acquire(caller) else {
            try Task.checkCancellation()
            throw APIError(
                .tooManyRequests, code: "too_many_requests",
                reason:
                    "this credential has \(concurrent) request(s) of this kind running and \(waiting) waiting: send the next one when one has answered",
                headers: [.retryAfter: "1"])
        }
        defer { release(caller) }
        return try await withTaskExecutorPreference(executor) {
            try await Self.$caller.withValue(caller) { try await body() }
        }
    }

    /// The requests of `caller` running and waiting now (tests, metrics).
    public func load(of caller: String) -> (running: Int, waiting: Int) {
        state.withLock { state in
            let entry = state.callers[caller]
            return (entry?.running ?? 0, entry?.queue.count ?? 0)
        }
    }

    /// A turn for `caller`: at once, after waiting, or `false` (refused, or cancelled waiting).
    private func acquire(_ caller: String) async -> Bool {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // One lock for the decision and the queueing, the one `release` and the
                // cancellation handler take: a waiter is queued only while a turn is running,
                // and is either queued here and resumed there, or resumed here.
                let now = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    var entry = state.callers[caller, default: Caller()]
                    if entry.running < concurrent {
                        entry.running += 1
                        state.callers[caller] = entry
                        return true
                    }
                    guard entry.queue.count < waiting else { return false }
                    entry.queue.append((id, continuation))
                    state.callers[caller] = entry
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard var entry = state.callers[caller],
                    let index = entry.queue.firstIndex(where: { $0.id == id })
                else { return nil }
                let waiter = entry.queue.remove(at: index).continuation
                state.callers[caller] = entry
                return waiter
            }
            waiter?.resume(returning: false)
        }
    }

    /// Ends a turn: the next waiter of `caller` runs in its place.
    private func release(_ caller: String) {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard var entry = state.callers[caller] else { return nil }
            if entry.queue.isEmpty {
                entry.running -= 1
                state.callers[caller] = entry.running == 0 ? nil : entry
                return nil
            }
            // The turn passes on: `running` stays.
            let next = entry.queue.removeFirst().continuation
            state.callers[caller] = entry
            return next
        }
        next?.resume(returning: true)
    }
}

/// Runs each request within the caller's ``CallerBudget``: the caller is the bearer token (or
/// `?token=`), else the peer's address.
struct CallerBudgetMiddleware: RouterMiddleware {
    typealias Context = SwitchboardRequestContext

    let budget: CallerBudget

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        try await budget.run(for: Self.caller(request, context: context)) {
            try await next(request, context)
        }
    }

    /// The key of a request's caller: its credential, or its address without the port.
    static func caller(_ request: Request, context: Context) -> String {
        if let token = AccessTokens.presented(in: request) { return "token:" + token }
        return "address:" + (context.remoteAddress?.ipAddress ?? "unknown")
    }
}
