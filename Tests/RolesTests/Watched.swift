import SwitchboardTesting
import Testing

/// Runs each test of a suite as a ``StepWatchdog`` step named after it: a process test that
/// waits past the watchdog's patience is reported by name, with how long, on standard error,
/// even when the step it waits in (a child process, a client) names no test.
struct WatchedTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        try await StepWatchdog.step("test \"\(test.name)\" (\(test.sourceLocation.fileName))") {
            try await function()
        }
    }
}

extension Trait where Self == WatchedTrait {
    /// Each test of the suite is a watchdog step (``WatchedTrait``).
    static var watched: Self { Self() }
}
