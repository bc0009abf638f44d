import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `switchboard` role running as a process of its own with its HTTP port, as in production: the
/// end-to-end tests' ingest workers and receivers (so that a test can SIGKILL one mid-request),
/// and the benchmarks' processes under load.
public final class SwitchboardProcess: Sendable {
    /// The process.
    public let process: ChildProcess
    /// Its HTTP port on 127.0.0.1 (health, readiness, metrics, the role's routes).
    public let httpPort: Int

    /// The built `switchboard` binary: `SWITCHBOARD_BINARY` (set by scripts/test.sh), or the
    /// executable next to the running one (the test bundle's runner and `switchboard-bench` are
    /// built into the same folder).
    public static var binary: String {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_BINARY"], !path.isEmpty { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("switchboard").path
    }

    /// Starts `switchboard <arguments> --http-port <httpPort>` with our environment and `environment`
    /// over it; its output is appended to `log`, or inherited when it is `nil`.
    ///
    /// - Throws: `POSIXError` when it cannot be started.
    public init(
        _ arguments: [String], environment: [String: String] = [:], httpPort: Int = LoopbackSocket.freePort(),
        log: String?
    ) throws {
        self.httpPort = httpPort
        process = try ChildProcess(
            [Self.binary] + arguments + ["--http-port", String(httpPort)],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, output: log)
    }

    /// `http://127.0.0.1:<httpPort>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(httpPort)")! }

    /// What it has printed so far (empty when its output is inherited).
    public var log: String { process.output }

    /// The HTTP status of `GET path`, or `nil` when it does not answer.
    public func status(of path: String) async -> Int? {
        await httpStatus(baseURL.appendingPathComponent(path))
    }

    /// The body of `GET path`, or `nil` when it does not answer.
    public func body(of path: String) async -> String? {
        await httpGet(baseURL.appendingPathComponent(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The values of metric `name` by its one label `label` on the process's `/metrics` (empty
    /// when it does not answer): `name{label="x"} 1.5` gives `["x": 1.5]`.
    public func metricValues(_ name: String, by label: String) async -> [String: Double] {
        Self.metricValues(name, by: label, in: await body(of: "/metrics") ?? "")
    }

    /// The values of metric `name` by its one label `label` in a Prometheus text exposition.
    public static func metricValues(_ name: String, by label: String, in text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        let prefix = "\(name){\(label)=\""
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            let fields = line.dropFirst(prefix.count).split(separator: " ")
            guard fields.count == 2, let value = Double(fields[1]) else { continue }
            values[String(fields[0].prefix { $0 != "\"" })] = value
        }
        return values
    }

    /// Waits until `GET path` answers 200: `false` when it does not within `deadline`, or the
    /// process ends first.
    public func waitUntilReady(_ path: String = "/ready", within deadline: Duration = .seconds(60)) async -> Bool {
        await process.waitUntilReady(baseURL.appendingPathComponent(path), within: deadline)
    }

    /// Sends `signal` (SIGKILL for a crash, SIGTERM for a graceful stop) and waits for the exit off
    /// the cooperative pool: the exit status, or 128 + the signal that ended it.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) async -> Int32 {
        await process.stop(signal: signal)
    }

    /// Sends `signal` and reaps it, blocking: for `defer` clean-ups (SIGKILL ends it at once);
    /// nothing once it has been reaped.
    public func kill(signal: Int32 = SIGKILL) {
        process.kill(signal: signal)
    }
}
