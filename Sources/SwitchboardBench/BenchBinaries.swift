import Foundation

/// Where the benchmarks find the production binary they drive.
enum BenchBinaries {
    /// `switchboard`: `SWITCHBOARD_BINARY`, or the executable next to `switchboard-bench` (both
    /// products are built into the same folder).
    static var switchboard: String {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_BINARY"], !path.isEmpty { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("switchboard").path
    }
}
