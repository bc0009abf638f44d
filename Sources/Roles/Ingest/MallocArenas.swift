#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator gives each thread that contends for memory an arena of its own (up to eight
/// per core) and keeps freed memory in them. The ingest frees whole batches (thousands of records
/// of kilobytes each) from whichever thread of the cooperative pool or the event loops wrote them,
/// so memory freed in one arena is not reused by another: measured with `make bench-ingest`, the
/// worker's RSS grew ~30–60 MB above what its batches hold. Two arenas (one per core of the
/// machines the README sizes for) keep the RSS bounded by the records in flight.
enum MallocArenas {
    /// Limits glibc's malloc arenas to `count` (`MALLOC_ARENA_MAX`, if set, wins).
    static func limit(to count: Int32 = 2) {
        #if canImport(Glibc)
            // mallopt is in <malloc.h>, which the Glibc module does not import: look it up.
            guard getenv("MALLOC_ARENA_MAX") == nil, let symbol = dlsym(nil, "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mArenaMax: Int32 = -8  // M_ARENA_MAX
            _ = unsafeBitCast(symbol, to: Mallopt.self)(mArenaMax, count)
        #endif
    }
}
