import Foundation
import SwitchboardTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A `switchboard receive` process, as in production (so a test can SIGKILL it mid-request).
final class ReceiverProcess: Sendable {
    let pid: pid_t
    let httpPort: Int
    let logURL: URL

    static let accessKey = "receiver-key-for-tests"

    /// Starts the receiver on `port` (a free one by default).
    init(bootstrap: String, port: Int = ProcessSpawn.freeLoopbackPort(), environment extra: [String: String] = [:])
        throws
    {
        httpPort = port
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-\(port).log")
        var environment = ProcessInfo.processInfo.environment
        environment["SWITCHBOARD_FIREHOSE_ACCESS_KEYS"] = "old-key-for-tests,\(Self.accessKey)"
        environment["SWITCHBOARD_RECEIVER_PRODUCE_TIMEOUT_MS"] = "3000"
        environment["SWITCHBOARD_LOG_LEVEL"] = "info"
        environment["SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS"] = "0"
        for (key, value) in extra { environment[key] = value }
        pid = try ProcessSpawn.start(
            [WorkerProcess.binary, "receive", "--bootstrap", bootstrap, "--http-port", String(port)],
            environment: environment, output: logURL.path)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(httpPort)")! }

    /// Sends `signal` and waits for the exit off the cooperative pool.
    @discardableResult
    func stop(signal: Int32) async -> Int32 {
        _ = Glibc.kill(pid, signal)
        return await ProcessSpawn.exit(of: pid)
    }

    /// SIGKILL and reap, blocking: for `defer` clean-ups.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        _ = ProcessSpawn.wait(pid)
    }

    func status(of path: String) async -> Int? {
        await httpStatus(baseURL.appendingPathComponent(path))
    }

    func body(of path: String) async -> String? {
        await httpGet(baseURL.appendingPathComponent(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
}
