/// Runs `operation`, failing with ``DeadlineExceeded`` when it takes longer than `timeout`.
///
/// Every network call of the process goes through a deadline: failure is a visible state, never
/// a hang.
///
/// - Important: Structured concurrency waits for every child before the group returns, so an
///   operation that ignores cancellation still holds the caller after the deadline. The
///   operations passed here must honour cancellation (postgres-nio queries and sleeps do).
/// - Throws: ``DeadlineExceeded``, or what `operation` throws.
@discardableResult
public func withDeadline<T: Sendable>(
    _ timeout: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(timeout: timeout)
        }
        return value
    }
}

/// An operation did not finish within its deadline.
public struct DeadlineExceeded: Error, Hashable, CustomStringConvertible {
    /// The deadline that passed.
    public var timeout: Duration

    public init(timeout: Duration) { self.timeout = timeout }

    public var description: String { "no answer within \(timeout)" }
}
