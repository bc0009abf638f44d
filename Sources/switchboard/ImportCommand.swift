import ArgumentParser
import ContactCenter
import Foundation
import Logging
import Storage

/// `switchboard import FILE...`: loads CTR files exported by Amazon Connect (Firehose to S3).
///
/// Files are newline-delimited JSON or JSON objects concatenated without separators, optionally
/// gzip-compressed. Records go through the same decoder, version guard and dead-letter table as
/// the Kafka ingest; an older copy never overwrites a newer row.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import CTR files (NDJSON or concatenated JSON, optionally gzip) into PostgreSQL."
    )

    @Argument(help: "CTR export files.")
    var files: [String]

    @Option(help: "Records per transaction.")
    var batchSize = 2_000

    func validate() throws {
        for file in files where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read \(file)")
        }
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive") }
    }

    func run() async throws {
        let settings = try Settings()
        let files = self.files
        let batchSize = self.batchSize
        try await withDatabase { client, logger in
            let writer = IngestWriter(client: client, group: "import", logger: logger)
            let decoder = IngestDecoder(
                topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes)
            let totalBytes = files.reduce(Int64(0)) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0)
            }
            var progress = ImportProgress(totalBytes: totalBytes)
            var summary = IngestWriteSummary()
            for file in files {
                let reader = try CompressedFileReader(path: file)
                let topic = IngestDecoder.importTopicPrefix + URL(fileURLWithPath: file).lastPathComponent
                var splitter = JSONObjectSplitter()
                var pending: [SourceRecord] = []
                var index: Int64 = 0
                func flush() async throws {
                    guard !pending.isEmpty else { return }
                    let written = try await writer.write(decoder.decode(pending), claims: nil)
                    summary.contactRecordsWritten += written.contactRecordsWritten
                    summary.contactRecordsOutdated += written.contactRecordsOutdated
                    summary.deadLettersWritten += written.deadLettersWritten
                    progress.advance(records: pending.count, bytesRead: reader.compressedBytesRead)
                    pending.removeAll(keepingCapacity: true)
                }
                while let chunk = try reader.read() {
                    for object in splitter.feed(chunk) {
                        pending.append(
                            SourceRecord(topic: topic, partition: -1, offset: index, key: nil, value: object))
                        index += 1
                    }
                    if pending.count >= batchSize { try await flush() }
                }
                if let tail = splitter.finish() {
                    pending.append(SourceRecord(topic: topic, partition: -1, offset: index, key: nil, value: tail))
                }
                try await flush()
                progress.finishFile()
            }
            progress.finish()
            print(
                "imported \(progress.records) records from \(files.count) file(s): "
                    + "\(summary.contactRecordsWritten) written, \(summary.contactRecordsOutdated) older than stored, "
                    + "\(summary.deadLettersWritten) to dead_letter"
            )
        }
    }
}

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
        let elapsed = max((now - start).seconds, 0.001)
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

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
