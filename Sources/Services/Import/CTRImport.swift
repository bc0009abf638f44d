import ContactCenter
import Foundation
import OperatingHours
import Primitives

/// Loads CTR files exported by Amazon Connect (Firehose to S3) into PostgreSQL.
///
/// Files are newline-delimited JSON or JSON objects concatenated without separators, optionally
/// gzip-compressed. The destination writes them on the stream's write path (the same decoder,
/// version guard and dead-letter table as the Kafka ingest; an older copy never overwrites a
/// newer row). Afterwards the stores' business days are rewritten, so the imported years have theirs.
public struct CTRImport: Sendable {
    /// What an import wrote.
    public struct Outcome: Sendable {
        /// Records read from the files.
        public var records = 0
        /// What the destination did with them.
        public var counts = ImportCounts()
    }

    let batchSize: Int
    let flows: FlowSet?

    /// - Parameters:
    ///   - batchSize: Records read per batch.
    ///   - flows: The stores whose business days are rewritten after the import (imported years
    ///     need theirs); `nil` leaves them as they are.
    public init(batchSize: Int, flows: FlowSet? = nil) {
        self.batchSize = batchSize
        self.flows = flows
    }

    /// Imports `files` into `destination`, drawing a progress bar on a terminal.
    /// - Throws: File errors, or what the destination throws.
    public func run(files: [String], into destination: any ImportDestination) async throws -> Outcome {
        let batches = try CTRFileBatches(files: files, batchSize: batchSize)
        let counts = try await destination.write(batches, batchSize: batchSize)
        let records = await batches.finish()
        if let flows { try await destination.syncBusinessDays(flows: flows) }
        return Outcome(records: records, counts: counts)
    }
}

/// Where an import's records go (implemented in Roles over the ingest pipeline).
public protocol ImportDestination: Sendable {
    /// Writes every record `batches` reads, until it returns nil, and makes them durable before it
    /// returns.
    /// - Parameter batchSize: The records read per batch.
    func write(_ batches: CTRFileBatches, batchSize: Int) async throws -> ImportCounts
    /// Rewrites the business days of `flows`' stores.
    func syncBusinessDays(flows: FlowSet) async throws
}

/// What a destination did with an import's records.
public struct ImportCounts: Sendable, Hashable {
    /// Contact records stored (new, or newer than the stored copy).
    public var written = 0
    /// Contact records older than the stored copy, left alone.
    public var outdated = 0
    /// Records written to the dead-letter table.
    public var deadLetters = 0

    /// Counts of a destination's writes.
    public init(written: Int = 0, outdated: Int = 0, deadLetters: Int = 0) {
        self.written = written
        self.outdated = outdated
        self.deadLetters = deadLetters
    }
}

/// One record of an import file.
public struct ImportedRecord: Sendable {
    /// The file's name (without its folder).
    public var file: String
    /// A pseudo-partition from the record's ContactId (``CTRFileBatches/partition(of:)``).
    public var partition: Int32
    /// The record's position in its file.
    public var index: Int64
    /// The record, JSON.
    public var value: [UInt8]
}

/// The import's records, read from the files one batch at a time.
public actor CTRFileBatches {
    /// Pseudo-partitions of imported records (spread over the lanes by ContactId).
    public static let partitions: UInt32 = 16

    private var files: ArraySlice<String>
    private let batchSize: Int
    private var progress: ImportProgress
    private var reader: CompressedFileReader?
    private var file = ""
    private var splitter = JSONObjectSplitter()
    private var index: Int64 = 0
    private var pending: [ImportedRecord] = []

    init(files: [String], batchSize: Int) throws {
        self.files = files[...]
        self.batchSize = batchSize
        let totalBytes = files.reduce(Int64(0)) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0)
        }
        progress = ImportProgress(totalBytes: totalBytes)
    }

    /// The next records, at most `maximumRecords` (and the batch size); nil after the last.
    public func nextBatch(maximumRecords: Int) async throws -> [ImportedRecord]? {
        let wanted = max(1, min(batchSize, maximumRecords))
        while pending.count < wanted {
            if reader == nil {
                guard let file = files.popFirst() else { break }
                reader = try CompressedFileReader(path: file)
                self.file = URL(fileURLWithPath: file).lastPathComponent
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
    public func finish() -> Int {
        progress.finish()
        return progress.records
    }

    private func append(_ object: [UInt8]) {
        pending.append(
            ImportedRecord(file: file, partition: Self.partition(of: object), index: index, value: object))
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
    public static func partition(ofContact contactId: String) -> Int32 {
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
