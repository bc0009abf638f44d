import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// A child process did not come about as expected: it did not print what was waited for, or
    /// ended first.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Waits until `extract` finds its answer in ``output``, checking every 50 ms.
    ///
    /// - Throws: ``Failure`` with `what` and the output so far when it is not there within
    ///   `deadline`, or the process ends without printing it.
    public func waitForOutput<T>(
        _ what: String, within deadline: Duration = .seconds(30), _ extract: (String) -> T?
    ) async throws -> T {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            let text = output
            if let value = extract(text) { return value }
            guard clock.now < end, isRunning else {
                let ending = isRunning ? "not seen within \(deadline)" : "the process ended first"
                throw Failure(description: "\(what): \(ending); it printed:\n\(text.suffix(3_000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until `GET url` answers 200, polling every 200 ms: `false` when it does not within
    /// `deadline`, or the process ends first.
    public func waitUntilReady(_ url: URL, within deadline: Duration = .seconds(60)) async -> Bool {
        await eventually(within: deadline) {
            guard isRunning else { return true }
            return await httpStatus(url) == 200
        } && isRunning
    }

    /// Runs `arguments` to its end, its output kept in a file of its own: its exit status and what
    /// it printed.
    ///
    /// - Parameters:
    ///   - killAfter: SIGKILL ends it when it has run this long (its status is then 137).
    ///   - includingErrors: `false` keeps standard error out of the output (it is inherited).
    /// - Throws: `POSIXError` when it cannot be started.
    public static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        killAfter limit: Duration? = nil, includingErrors: Bool = true
    ) async throws -> (status: Int32, output: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try ChildProcess(
            arguments, environment: environment, output: path, includingErrors: includingErrors)
        guard let limit else { return (await process.exit(), process.output) }
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await process.exit() }
            group.addTask {
                guard (try? await Task.sleep(for: limit)) != nil else { return nil }
                process.send(SIGKILL)
                return nil
            }
            var status: Int32 = -1
            for await result in group {
                guard let result else { continue }
                status = result
                group.cancelAll()
            }
            return status
        }
        return (status, process.output)
    }

    /// Runs a shell command (bash) to its end: its exit status; the output is appended to `output`.
    @discardableResult
    public static func shell(_ command: String, output: String = "/tmp/switchboard-shell.log") async throws -> Int32 {
        try await ChildProcess(["/bin/bash", "-c", command], output: output).exit()
    }

    /// ``shell(_:output:)`` blocking the calling thread: for `defer` clean-ups only.
    @discardableResult
    public static func shellBlocking(_ command: String, output: String = "/tmp/switchboard-shell.log") throws -> Int32 {
        try ChildProcess(["/bin/bash", "-c", command], output: output).waitBlocking()
    }
}
