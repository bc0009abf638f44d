import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// User and system CPU time it used so far (`/proc/<pid>/stat`), or 0 once it has ended.
    public var cpuSeconds: Double { Self.cpuSeconds(of: pid) }

    /// Its peak resident set size so far, from `/proc/<pid>/status` (`VmHWM`, reset by exec), or 0
    /// once it has ended.
    public var peakRSSMegabytes: Double { Self.peakRSSMegabytes(of: pid) }

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

    /// CPU time all of the machine's cores spent busy so far (`/proc/stat`: user, nice, system,
    /// irq and softirq; not idle, I/O wait nor steal), or 0: what processes' own CPU times miss,
    /// such as the kernel's writeback of the pages they dirtied.
    public static func machineBusySeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return 0 }
        // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in clock ticks
        // (guest time is already within user).
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 7 else { return 0 }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The peak resident set size of a live process, from `/proc/<pid>/status` (`VmHWM`), or 0.
    private static func peakRSSMegabytes(of pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
