import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of the tests or the benchmarks: the one way they start `switchboard`, `psql`,
/// `openssl` or any other program, wait for it to say it is ready, stop it and read its status.
///
/// Spawned with `posix_spawn` and reaped with `waitpid`: Foundation's `Process` did not reap
/// children reliably here (a finished child stayed a zombie and `waitUntilExit` never returned).
/// Waits run on a thread of their own, never on Swift's cooperative pool (`waitpid` blocks; on a
/// 2-core machine two blocked pool threads stall every other test).
public final class ChildProcess: Sendable {
    /// Its process id.
    public let pid: pid_t
    /// The file its output is appended to, or `nil` when it inherits ours.
    public let outputPath: String?
    /// Its exit status once it has been reaped: a reaped pid may be reused, so nothing signals it after that.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `arguments` (the first is the executable's path) with `environment`.
    ///
    /// - Parameters:
    ///   - output: The file standard output and error are appended to (created if missing), or
    ///     `nil` to inherit ours.
    ///   - includingErrors: `false` leaves standard error inherited, so that `output` holds
    ///     exactly what the program printed on standard output (a `pg_dump`).
    ///   - input: The descriptor its standard input reads, or `nil` to inherit ours.
    /// - Throws: `POSIXError` when the process cannot be started.
    public init(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        output: String? = nil, includingErrors: Bool = true, input: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            if includingErrors { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        }
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
        self.pid = pid
        outputPath = output
    }

    /// What it has written to ``outputPath`` so far, decoded leniently; empty without a file.
    public var output: String {
        guard let outputPath, let data = FileManager.default.contents(atPath: outputPath) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether it is still running (not ended, and not an unreaped zombie either).
    public var isRunning: Bool {
        guard reaped.withLock({ $0 }) == nil,
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        // After "pid (comm) " comes the state: Z for a zombie, X for a dead one.
        let state = stat[stat.index(after: end)...].dropFirst().first
        return state != "Z" && state != "X"
    }

    /// Waits for it to exit, off the cooperative pool: its exit status, or 128 + the signal that
    /// ended it.
    @discardableResult
    public func exit() async -> Int32 {
        await usage().status
    }

    /// Sends `signal` (SIGTERM for a graceful stop, SIGKILL for a crash) and waits for the exit
    /// off the cooperative pool: its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) async -> Int32 {
        send(signal)
        return await exit()
    }

    /// Sends `signal` and waits for the exit, blocking the calling thread: for `defer` clean-ups
    /// (SIGKILL ends a process at once); use ``stop(signal:)`` everywhere else. Once it has been
    /// reaped, only returns its status.
    @discardableResult
    public func kill(signal: Int32 = SIGKILL) -> Int32 {
        send(signal)
        return waitBlocking()
    }

    /// Waits for it to exit, blocking the calling thread: for `defer` clean-ups; use ``exit()``
    /// everywhere else.
    @discardableResult
    public func waitBlocking() -> Int32 {
        reaped.withLock { $0 } ?? reap().status
    }

    /// Sends `signal` unless it has been reaped.
    public func send(_ signal: Int32) {
        reaped.withLock { status in
            if status == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// What a process used, from `wait4`'s resource usage.
    public struct Usage: Sendable {
        /// Its exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// User and system CPU time it used (0 when someone else reaped it).
        public var cpuSeconds: Double
    }

    /// Waits for it to exit (off the cooperative pool, like ``exit()``) and returns what it used.
    /// Not its peak memory: on Linux `wait4`'s maximum RSS includes the parent it was forked from
    /// (kept across exec); sample ``peakRSSMegabytes`` while it runs instead.
    public func usage() async -> Usage {
        if let status = reaped.withLock({ $0 }) { return Usage(status: status, cpuSeconds: 0) }
        return await StepWatchdog.step("waiting for process \(pid) (\(commandLine)) to exit") {
            await onThread { self.reap() }
        }
    }

    /// Blocks until it exits and records its status.
    private func reap() -> Usage {
        var status: Int32 = 0
        var usage = rusage()
        var result: pid_t = -1
        repeat { result = wait4(pid, &status, 0, &usage) } while result == -1 && errno == EINTR
        guard result == pid else {
            // Reaped by a concurrent wait: that one records the status.
            return Usage(status: reaped.withLock { $0 } ?? -1, cpuSeconds: 0)
        }
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        reaped.withLock { $0 = exit }
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return Usage(status: exit, cpuSeconds: cpu)
    }

    /// Its command line while it lives, for messages (empty once it has ended).
    var commandLine: String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data.prefix(200).map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
