#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator gives each thread that contends for memory an arena of its own (up to eight
/// per core) and keeps freed memory in them. The ingest frees whole batches (thousands of records
/// of kilobytes each) from whichever thread of the cooperative pool or the event loops wrote them,
/// so memory freed in one arena is not reused by another, and the worker's RSS grows tens of
/// megabytes above what its batches hold. Two arenas (one per core of the
/// machines docs/ingest.md sizes for) keep the RSS bounded by the records in flight.
///
/// A batch's column arrays are megabytes each. glibc serves such blocks with `mmap` and returns
/// them on `free`, but after the first such free it raises its threshold (up to 32 MB) and serves
/// the next ones from the arenas' heaps, where they fragment and stay: a fixed 1 MiB threshold
/// keeps every large buffer out of the heaps (without it, the worker's peak RSS under `make
/// bench-ingest` is about a quarter higher).
enum MallocArenas {
    /// Limits glibc's malloc arenas to `count` and fixes the mmap threshold at `mmapThreshold`
    /// (`MALLOC_ARENA_MAX` and `MALLOC_MMAP_THRESHOLD_`, if set, win).
    static func limit(to count: Int32 = 2, mmapThreshold: Int32 = 1 << 20) {
        #if canImport(Glibc)
            // mallopt is in <malloc.h>, which the Glibc module does not import: look it up.
            guard let symbol = dlsym(nil, "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            if getenv("MALLOC_ARENA_MAX") == nil { _ = mallopt(-8, count) }  // M_ARENA_MAX
            if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = mallopt(-3, mmapThreshold) }  // M_MMAP_THRESHOLD
        #endif
    }
}
