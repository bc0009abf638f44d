import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Child processes for the end-to-end tests and the benchmarks.
///
/// Spawned with `posix_spawn` and reaped with `waitpid`: Foundation's `Process` did not reap
/// children reliably here (a finished child stayed a zombie and `waitUntilExit` never returned).
public enum ProcessSpawn {
    /// Starts `arguments` with `environment`; standard output and error are appended to `output`,
    /// or inherited when it is `nil`; standard input is the descriptor `input`, or inherited.
    ///
    /// - Throws: `POSIXError` when the process cannot be started.
    public static func start(
        _ arguments: [String], environment: [String: String], output: String? = nil, input: Int32? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
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
        return pid
    }

    /// Waits for `pid` to exit without holding a thread of Swift's cooperative pool (`waitpid`
    /// blocks; on a 2-core machine two blocked pool threads stall every other test): its exit
    /// status, or 128 + the signal that ended it.
    public static func exit(of pid: pid_t) async -> Int32 {
        await StepWatchdog.step("waiting for process \(pid) (\(commandLine(of: pid))) to exit") {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: wait(pid)) }
            }
        }
    }

    /// The command line of a live process, for messages (empty once it has ended).
    static func commandLine(of pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data.prefix(200).map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// Waits for `pid` to exit, blocking the calling thread: for `defer` clean-ups after a
    /// SIGKILL (which ends a process at once); use ``exit(of:)`` everywhere else.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }
        return 128 + (status & 0x7F)
    }

    /// What a process used, from `wait4`'s resource usage.
    public struct Usage: Sendable {
        /// Its exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// User and system CPU time it used.
        public var cpuSeconds: Double
    }

    /// Waits for `pid` to exit (off the cooperative pool, like ``exit(of:)``) and returns what it
    /// used. Not its peak memory: on Linux `wait4`'s maximum RSS includes the parent it was forked
    /// from (kept across exec); sample ``peakRSSMegabytes(of:)`` while it runs instead.
    public static func usage(of pid: pid_t) async -> Usage {
        await StepWatchdog.step("waiting for process \(pid) (\(commandLine(of: pid))) to exit") {
            await usageWaiting(for: pid)
        }
    }

    private static func usageWaiting(for pid: pid_t) async -> Usage {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                var usage = rusage()
                while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
                let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                let cpu =
                    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
                    + Double(usage.ru_stime.tv_usec) / 1e6
                continuation.resume(returning: Usage(status: exit, cpuSeconds: cpu))
            }
        }
    }

    /// User and system CPU time a live process used so far (`/proc/<pid>/stat`), or 0.
    public static func cpuSeconds(of pid: pid_t, includingReapedChildren: Bool = false) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15, cutime and
        // cstime (the children it has waited for) 16 and 17.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 14, let user = Double(fields[11]), let system = Double(fields[12]),
            let childUser = Double(fields[13]), let childSystem = Double(fields[14])
        else { return 0 }
        let ticks = user + system + (includingReapedChildren ? childUser + childSystem : 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU time used so far by every live process whose command name is `name` (for example the
    /// PostgreSQL server's processes), with the children they have reaped: the postmaster keeps
    /// the CPU time of the backends that have exited, so a client's closed connections count.
    public static func cpuSeconds(ofProcessesNamed name: String) -> Double {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        var total = 0.0
        for entry in entries {
            guard let pid = pid_t(entry),
                let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
            else { continue }
            total += cpuSeconds(of: pid, includingReapedChildren: true)
        }
        return total
    }

    /// Runs a shell command (bash), returning its exit status; output goes to `output`.
    @discardableResult
    public static func shell(_ command: String, output: String = "/tmp/switchboard-shell.log") async throws -> Int32 {
        await exit(
            of: try start(
                ["/bin/bash", "-c", command], environment: ProcessInfo.processInfo.environment, output: output))
    }

    /// ``shell(_:output:)`` blocking the calling thread: for `defer` clean-ups only.
    @discardableResult
    public static func shellBlocking(_ command: String, output: String = "/tmp/switchboard-shell.log") throws -> Int32 {
        wait(try start(["/bin/bash", "-c", command], environment: ProcessInfo.processInfo.environment, output: output))
    }

    /// The peak resident set size of a live process, from `/proc/<pid>/status` (`VmHWM`).
    public static func peakRSSMegabytes(of pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func freeLoopbackPort() -> Int {
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
}
