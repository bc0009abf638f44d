import Foundation
import SwitchboardTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A `switchboard ingest` worker running as a separate process, as in production.
///
/// Spawned with `posix_spawn` and reaped with `waitpid`: Foundation's `Process` did not reap
/// children reliably here (a finished child stayed a zombie and `waitUntilExit` never returned).
final class WorkerProcess: Sendable {
    let pid: pid_t
    let httpPort: Int
    let logURL: URL

    /// The built `switchboard` binary: `SWITCHBOARD_BINARY` (set by scripts/test.sh) or the
    /// executable next to this test bundle.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_BINARY"] { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("switchboard").path
    }

    init(bootstrap: String, databaseURL: String, group: String, name: String, environment extra: [String: String] = [:])
        throws
    {
        httpPort = ProcessSpawn.freeLoopbackPort()
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(name)-\(httpPort).log")
        var environment = ProcessInfo.processInfo.environment
        environment["SWITCHBOARD_DATABASE_URL"] = databaseURL
        environment["SWITCHBOARD_INGEST_GROUP"] = group
        environment["SWITCHBOARD_KAFKA_SESSION_TIMEOUT_MS"] = "6000"
        environment["SWITCHBOARD_LOG_LEVEL"] = "info"
        environment["SWITCHBOARD_INGEST_BATCH_RECORDS"] = "500"
        for (key, value) in extra { environment[key] = value }
        pid = try ProcessSpawn.start(
            [Self.binary, "ingest", "--bootstrap", bootstrap, "--http-port", String(httpPort)],
            environment: environment,
            output: logURL.path
        )
    }

    /// Sends `signal` (SIGKILL for a crash, SIGTERM for a graceful stop) and waits for the exit
    /// off the cooperative pool.
    ///
    /// - Returns: The exit status, or 128 + signal number when a signal ended the process.
    @discardableResult
    func stop(signal: Int32) async -> Int32 {
        _ = Glibc.kill(pid, signal)
        return await ProcessSpawn.exit(of: pid)
    }

    /// SIGKILL and reap, blocking: for `defer` clean-ups (a killed process is gone at once).
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        _ = ProcessSpawn.wait(pid)
    }

    /// The HTTP status of `GET path` on the worker, or `nil` when it does not answer.
    func status(of path: String) async -> Int? {
        await httpStatus(URL(string: "http://127.0.0.1:\(httpPort)\(path)")!)
    }

    /// The body of `GET path` on the worker.
    func body(of path: String) async -> String? {
        guard let data = await httpGet(URL(string: "http://127.0.0.1:\(httpPort)\(path)")!) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
}
