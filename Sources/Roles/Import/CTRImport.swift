import ContactCenter
import Foundation
import Logging
import OperatingHours
import PostgresNIO
import Storage

/// Loads CTR files exported by Amazon Connect (Firehose to S3) into PostgreSQL.
///
/// Files are newline-delimited JSON or JSON objects concatenated without separators, optionally
/// gzip-compressed. Records go through the same decoder, version guard and dead-letter table as
/// the Kafka ingest; an older copy never overwrites a newer row. Afterwards the stores' business
/// days are rewritten, so the imported years have theirs.
public struct CTRImport: Sendable {
    /// What an import wrote.
    public struct Outcome: Sendable {
        /// Records read from the files.
        public var records = 0
        /// What the writer did with them.
        public var summary = IngestWriteSummary()
    }

    let settings: Settings
    let batchSize: Int
    let flows: FlowSet?

    /// - Parameters:
    ///   - settings: Topics and the largest accepted record.
    ///   - batchSize: Records per transaction.
    ///   - flows: The stores whose business days are rewritten after the import (imported years
    ///     need theirs); `nil` leaves them as they are.
    public init(settings: Settings, batchSize: Int, flows: FlowSet? = nil) {
        self.settings = settings
        self.batchSize = batchSize
        self.flows = flows
    }

    /// Imports `files` through `client`, drawing a progress bar on a terminal.
    ///
    /// - Throws: File errors, or what the writer throws.
    public func run(files: [String], client: PostgresClient, logger: Logger) async throws -> Outcome {
        let writer = IngestWriter(client: client, group: "import", logger: logger)
        let decoder = IngestDecoder(topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes)
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
                    pending.append(SourceRecord(topic: topic, partition: -1, offset: index, key: nil, value: object))
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
        if let flows {
            try await AnalystCalendar.syncBusinessDays(client: client, flows: flows, logger: logger)
        }
        return Outcome(records: progress.records, summary: summary)
    }
}
