/// Runs `operation`, failing with ``DeadlineExceeded`` when it takes longer than `timeout`.
///
/// Every network call of the process goes through a deadline: failure is a visible state, never a hang.
@discardableResult
func withDeadline<T: Sendable>(
    _ timeout: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw DeadlineExceeded(timeout: timeout)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// An operation did not finish within its deadline.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "no answer within \(timeout)" }
}
