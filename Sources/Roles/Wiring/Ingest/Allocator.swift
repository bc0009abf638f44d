#if canImport(Glibc)
    import Glibc
#endif

/// The memory allocator of the ingest and the import, which allocate and free ~40 strings and a
/// few kilobytes of buffers per record, on whichever thread of the cooperative pool or the
/// event loops decodes or writes the batch.
///
/// The `switchboard` executable links jemalloc (Package.swift), whose `malloc` replaces glibc's
/// in the whole process: its per-thread caches cost the ingest worker about a ninth less CPU per
/// row than glibc's arenas (glibc's malloc, free and chunk consolidation were a tenth of the
/// worker's samples; docs/benchmarks.md). jemalloc keeps the pages it frees for 10 s before
/// returning them; a worker frees megabytes per batch, several batches a second, so the ingest
/// keeps them 1 s and returns them whole (no lazy "muzzy" stage), which holds its peak RSS near
/// the records in flight. `MALLOC_CONF`, if set, wins.
///
/// A build without jemalloc (macOS, or a linker that dropped it) runs on glibc's allocator, which
/// gives each thread that contends for memory an arena of its own (up to eight per core) and
/// keeps freed memory in them: memory freed in one arena is not reused by another, and the RSS
/// grows tens of megabytes above what the batches hold. Two arenas and a fixed 1 MiB mmap
/// threshold (glibc would raise it after the first large free and serve the batches' megabyte
/// buffers from the heaps, where they fragment and stay) keep it bounded.
enum Allocator {
    /// Tunes the allocator for the ingest (see ``Allocator``): jemalloc's dirty pages returned
    /// after `decayMilliseconds`; glibc's arenas limited to `arenas` with the mmap threshold fixed
    /// at `mmapThreshold` (`MALLOC_ARENA_MAX` and `MALLOC_MMAP_THRESHOLD_`, if set, win).
    static func tuneForIngest(decayMilliseconds: Int = 1_000, arenas: Int32 = 2, mmapThreshold: Int32 = 1 << 20) {
        #if canImport(Glibc)
            if let mallctl = jemallocControl {
                guard getenv("MALLOC_CONF") == nil else { return }
                setDecay(dirty: decayMilliseconds, muzzy: 0, with: mallctl)
            } else {
                // mallopt is in <malloc.h>, which the Glibc module does not import: look it up.
                guard let symbol = dlsym(nil, "mallopt") else { return }
                typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
                let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
                if getenv("MALLOC_ARENA_MAX") == nil { _ = mallopt(-8, arenas) }  // M_ARENA_MAX
                if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = mallopt(-3, mmapThreshold) }  // M_MMAP_THRESHOLD
            }
        #endif
    }

    #if canImport(Glibc)
        /// jemalloc's `int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)`.
        typealias Mallctl =
            @convention(c) (
                UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?,
                Int
            ) -> Int32

        /// jemalloc's `mallctl`, when jemalloc serves `malloc` (looked up: no jemalloc header here).
        private static var jemallocControl: Mallctl? {
            dlsym(nil, "mallctl").map { unsafeBitCast($0, to: Mallctl.self) }
        }

        /// Sets the decay times of the arenas jemalloc creates from now on (`arenas.*_decay_ms`)
        /// and of those that exist (`arena.<i>.*_decay_ms`; the arenas not yet initialized refuse
        /// the call and take the new default when they are).
        private static func setDecay(dirty: Int, muzzy: Int, with mallctl: Mallctl) {
            func write(_ name: String, _ value: Int) {
                var value = value
                _ = mallctl(name, nil, nil, &value, MemoryLayout<Int>.size)
            }
            write("arenas.dirty_decay_ms", dirty)
            write("arenas.muzzy_decay_ms", muzzy)
            var count: UInt32 = 0
            var size = MemoryLayout<UInt32>.size
            guard mallctl("arenas.narenas", &count, &size, nil, 0) == 0 else { return }
            for arena in 0..<count {
                write("arena.\(arena).dirty_decay_ms", dirty)
                write("arena.\(arena).muzzy_decay_ms", muzzy)
            }
        }
    #endif

    /// How long jemalloc keeps the dirty pages of its arena 0 (`arena.0.dirty_decay_ms`), or nil
    /// when glibc's allocator serves `malloc`.
    static var jemallocDirtyDecayMilliseconds: Int? {
        #if canImport(Glibc)
            guard let mallctl = jemallocControl else { return nil }
            var value = 0
            var size = MemoryLayout<Int>.size
            return mallctl("arena.0.dirty_decay_ms", &value, &size, nil, 0) == 0 ? value : nil
        #else
            return nil
        #endif
    }
}
