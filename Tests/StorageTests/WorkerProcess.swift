import Foundation

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
        httpPort = freeLoopbackPort()
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(name)-\(httpPort).log")
        var environment = ProcessInfo.processInfo.environment
        environment["SWITCHBOARD_DATABASE_URL"] = databaseURL
        environment["SWITCHBOARD_INGEST_GROUP"] = group
        environment["SWITCHBOARD_KAFKA_SESSION_TIMEOUT_MS"] = "6000"
        environment["SWITCHBOARD_LOG_LEVEL"] = "info"
        environment["SWITCHBOARD_INGEST_BATCH_RECORDS"] = "500"
        for (key, value) in extra { environment[key] = value }
        pid = try spawn(
            [Self.binary, "ingest", "--bootstrap", bootstrap, "--http-port", String(httpPort)],
            environment: environment,
            output: logURL.path
        )
    }

    /// Sends `signal` (SIGKILL for a crash, SIGTERM for a graceful stop) and waits for the exit.
    ///
    /// - Returns: The exit status, or 128 + signal number when a signal ended the process.
    @discardableResult
    func stop(signal: Int32) -> Int32 {
        kill(pid, signal)
        return waitForExit(pid)
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

/// Starts `arguments` with `environment`, standard output and error appended to `output`.
func spawn(_ arguments: [String], environment: [String: String], output: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard result == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
    }
    return pid
}

/// Waits for `pid` to exit; its exit status, or 128 + the signal that ended it.
func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    if status & 0x7F == 0 { return (status >> 8) & 0xFF }
    return 128 + (status & 0x7F)
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
func freeLoopbackPort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            _ = bind(descriptor, raw, length)
            _ = getsockname(descriptor, raw, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Runs a shell command (bash), returning its exit status; output goes to /tmp/switchboard-shell.log.
@discardableResult
func shell(_ command: String) throws -> Int32 {
    let pid = try spawn(
        ["/bin/bash", "-c", command],
        environment: ProcessInfo.processInfo.environment,
        output: "/tmp/switchboard-shell.log"
    )
    return waitForExit(pid)
}

/// The repository root (for scripts/lib.sh).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
