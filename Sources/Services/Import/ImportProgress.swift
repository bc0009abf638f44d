import Foundation
import Primitives

#if canImport(Glibc)
    import Glibc
#endif

/// A progress bar on standard error (only when it is a terminal): records, rate, ETA.
struct ImportProgress {
    let totalBytes: Int64
    private(set) var records = 0
    private var bytesBeforeFile: Int64 = 0
    private var bytesInFile: Int64 = 0
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(totalBytes: Int64) { self.totalBytes = totalBytes }

    mutating func advance(records count: Int, bytesRead: Int64) {
        records += count
        bytesInFile = bytesRead
        draw(force: false)
    }

    mutating func finishFile() {
        bytesBeforeFile += bytesInFile
        bytesInFile = 0
    }

    mutating func finish() {
        draw(force: true)
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private mutating func draw(force: Bool) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        guard force || now - lastDraw > .milliseconds(250) else { return }
        lastDraw = now
        let elapsed = max((now - start).inSeconds, 0.001)
        let done = Double(bytesBeforeFile + bytesInFile) / Double(max(totalBytes, 1))
        let eta = done > 0 ? elapsed * (1 - done) / done : 0
        let width = 30
        let filled = min(width, Int(done * Double(width)))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let line = String(
            format: "\r%@ %3d%%  %d records  %.0f/s  ETA %02d:%02d ",
            bar, Int(done * 100), records, Double(records) / elapsed, Int(eta) / 60, Int(eta) % 60
        )
        FileHandle.standardError.write(Data(line.utf8))
    }
}
