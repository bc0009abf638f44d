/// Bounded exponential backoff: each failure waits twice as long as the last, up to a cap.
///
/// The one retry policy of the process (start-up tasks, writes, re-joins, polling for topics):
/// transient failures retry without hammering the peer, and no wait ever exceeds `maximum`, so
/// recovery after an outage is bounded by `maximum` plus the operation's own deadline.
public struct Backoff: Sendable, Hashable {
    /// The first delay.
    public let initial: Duration
    /// The longest delay.
    public let maximum: Duration
    /// The delay the next ``next()`` returns.
    public private(set) var current: Duration

    /// - Parameters:
    ///   - initial: The first delay (positive).
    ///   - maximum: The cap (at least `initial`).
    public init(initial: Duration, maximum: Duration) {
        precondition(initial > .zero && maximum >= initial, "backoff needs 0 < initial <= maximum")
        self.initial = initial
        self.maximum = maximum
        self.current = initial
    }

    /// The delay to wait now; the following one doubles, up to ``maximum``.
    public mutating func next() -> Duration {
        let delay = current
        current = min(current * 2, maximum)
        return delay
    }

    /// Back to ``initial`` after a success.
    public mutating func reset() {
        current = initial
    }

    /// Sleeps for ``next()``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while sleeping.
    public mutating func wait() async throws {
        try await Task.sleep(for: next())
    }
}
