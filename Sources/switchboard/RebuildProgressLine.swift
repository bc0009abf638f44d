import Foundation
import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// `switchboard rollup rebuild`'s progress on standard error, only when it is a terminal (as
/// the import's progress bar): the phase, the month, months done and rollup rows so far.
struct RebuildProgressLine: Sendable {
    private let start = ContinuousClock.now
    private let isTerminal = isatty(STDERR_FILENO) == 1

    /// Redraws the line for `progress`.
    func draw(_ progress: RollupStore.RebuildProgress) {
        guard isTerminal else { return }
        let elapsed = Int((ContinuousClock.now - start).components.seconds)
        let month = progress.month.map { " \($0)" } ?? ""
        let line = String(
            format: "\rrollup rebuild: %@%@  %d/%d months  %d rows  %02d:%02d \u{1B}[K",
            progress.phase, month, progress.monthsDone, progress.months, progress.rows, elapsed / 60, elapsed % 60)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Ends the line.
    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
