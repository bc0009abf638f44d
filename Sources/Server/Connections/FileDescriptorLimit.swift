#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`).
public enum FileDescriptorLimit {
    /// The current soft limit.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return Int(clamping: min(limit.rlim_cur, rlim_t(Int.max / 2)))
    }

    /// Raises the soft limit to the hard limit, as servers do at start (the soft default of 1,024
    /// is a relic of `select`; NIO uses epoll). Returns the new soft limit.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }
}
