import ContactCenter
import Foundation
import Logging
import OperatingHours
import PostgresNIO
import Primitives
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
    let lanes: Int
    let flows: FlowSet?

    /// - Parameters:
    ///   - settings: Topics, the largest accepted record, and the lanes (`SWITCHBOARD_INGEST_LANES`).
    ///   - batchSize: Records read per batch (spread over the lanes); a transaction writes at most
    ///     a lane's share of it (a lane that falls behind writes the parts queued for it together).
    ///   - flows: The stores whose business days are rewritten after the import (imported years
    ///     need theirs); `nil` leaves them as they are.
    public init(settings: Settings, batchSize: Int, flows: FlowSet? = nil) {
        self.settings = settings
        self.batchSize = batchSize
        self.lanes = settings.ingestLanes
        self.flows = flows
    }

    /// Imports `files` into `database` (through `client` for the business days), drawing a
    /// progress bar on a terminal.
    ///
    /// The records take the stream's write path: an ``IngestPipeline`` (same lanes, batches,
    /// version guard and dead letters) without offsets, reading and decoding the next records
    /// while the lanes write. Each record gets a pseudo-partition from its ContactId (a stable
    /// hash), so every copy of a contact goes through the same lane, in file order. The lanes
    /// commit with `synchronous_commit = off`; one synchronous commit at the end makes them all
    /// durable before this returns.
    ///
    /// - Throws: File errors, or what the writer throws.
    public func run(
        files: [String], database: DatabaseConfiguration, client: PostgresClient, logger: Logger
    ) async throws -> Outcome {
        Allocator.tuneForIngest()
        let pipeline = IngestPipeline(
            configuration: .init(
                group: "import",
                lanes: lanes,
                decoder: IngestDecoder(
                    topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes),
                maximumRecordsInFlight: batchSize * (lanes + 1),
                // A lane's share of a batch, as before lanes merged what queued for them: the
                // write timeout holds for the same transactions as before.
                maximumRecordsPerTransaction: max(1, batchSize / lanes),
                storesOffsets: false
            ),
            client: client,
            database: database,
            logger: logger
        )
        let source = try ImportFileSource(files: files, batchSize: batchSize)
        try await pipeline.run(source: source, isStopping: { false })
        // The lanes committed asynchronously (as the stream's do): make every batch durable before
        // the import reports success. A crash before this loses only what the next run rewrites
        // (the version guard makes re-importing the same files idempotent).
        try await IngestPipeline.flushCommits(client: client, logger: logger)
        let records = await source.finish()
        if let flows {
            try await AnalystCalendar.syncBusinessDays(client: client, flows: flows, logger: logger)
        }
        return Outcome(records: records, summary: pipeline.totals)
    }
}

/// The import's records, read from the files one batch at a time.
actor ImportFileSource: IngestSource {
    /// Pseudo-partitions of imported records (spread over the lanes by ContactId).
    static let partitions: UInt32 = 16

    private var files: ArraySlice<String>
    private let batchSize: Int
    private var progress: ImportProgress
    private var reader: CompressedFileReader?
    private var topic = ""
    private var splitter = JSONObjectSplitter()
    private var index: Int64 = 0
    private var pending: [SourceRecord] = []

    init(files: [String], batchSize: Int) throws {
        self.files = files[...]
        self.batchSize = batchSize
        let totalBytes = files.reduce(Int64(0)) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0)
        }
        progress = ImportProgress(totalBytes: totalBytes)
    }

    func nextBatch(maximumRecords: Int) async throws -> [SourceRecord]? {
        let wanted = max(1, min(batchSize, maximumRecords))
        while pending.count < wanted {
            if reader == nil {
                guard let file = files.popFirst() else { break }
                reader = try CompressedFileReader(path: file)
                topic = IngestDecoder.importTopicPrefix + URL(fileURLWithPath: file).lastPathComponent
                index = 0
            }
            guard let reader else { break }
            if let chunk = try reader.read() {
                for object in splitter.feed(chunk) { append(object) }
            } else {
                if let tail = splitter.finish() { append(tail) }
                progress.advance(records: 0, bytesRead: reader.compressedBytesRead)
                progress.finishFile()
                self.reader = nil
            }
        }
        guard !pending.isEmpty else { return nil }
        let batch = Array(pending.prefix(wanted))
        pending.removeFirst(batch.count)
        progress.advance(records: batch.count, bytesRead: reader?.compressedBytesRead ?? 0)
        return batch
    }

    /// Ends the progress bar; returns the records read.
    func finish() -> Int {
        progress.finish()
        return progress.records
    }

    private func append(_ object: [UInt8]) {
        pending.append(
            SourceRecord(
                topic: topic, partition: Self.partition(of: object), offset: index, key: nil, value: object))
        index += 1
    }

    /// The pseudo-partition of a record: FNV-1a of its ContactId, mixed, or `-1` without one (it
    /// goes to the dead-letter table anyway).
    ///
    /// FNV-1a's low bits are the parity of its input's low bits: without the final mix (MurmurHash3's
    /// `fmix32`) ContactIds such as `make bench-ingest`'s ("c0000042-0000-4000-8000-000000000042",
    /// each number written twice) would take 4 of the 16 pseudo-partitions, all even, and an import
    /// whose lanes go by the pseudo-partition's number would write on one lane.
    static func partition(of object: [UInt8]) -> Int32 {
        guard let contactId = try? ConnectStream.contactRecords.key(of: object) else { return -1 }
        return partition(ofContact: contactId)
    }

    /// The pseudo-partition of ContactId `contactId`.
    static func partition(ofContact contactId: String) -> Int32 {
        var hash: UInt32 = 2_166_136_261
        for byte in contactId.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        hash ^= hash >> 16
        hash &*= 0x85eb_ca6b
        hash ^= hash >> 13
        hash &*= 0xc2b2_ae35
        hash ^= hash >> 16
        return Int32(hash % partitions)
    }
}
