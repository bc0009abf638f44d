import Logging
import OperatingHours
import PostgresNIO
import Services
import Storage

/// `switchboard import`'s records on the stream's write path: an ``IngestPipeline`` (same lanes,
/// batches, version guard and dead letters) without offsets, reading and decoding the next
/// records while the lanes write.
///
/// Each record's pseudo-partition (a stable hash of its ContactId) sends every copy of a contact
/// through the same lane, in file order. The lanes commit with `synchronous_commit = off`; one
/// synchronous commit at the end makes them all durable before ``write(_:batchSize:)`` returns.
public struct PipelineImportDestination: ImportDestination {
    let settings: Settings
    let database: DatabaseConfiguration
    let client: PostgresClient
    let logger: Logger

    /// - Parameters:
    ///   - settings: Topics, the largest accepted record, and the lanes (`SWITCHBOARD_INGEST_LANES`).
    ///   - database: Where the lanes connect.
    ///   - client: For the final commit and the business days.
    public init(settings: Settings, database: DatabaseConfiguration, client: PostgresClient, logger: Logger) {
        self.settings = settings
        self.database = database
        self.client = client
        self.logger = logger
    }

    /// Writes `batches` through an ``IngestPipeline`` of `settings`' lanes, then commits
    /// synchronously once.
    public func write(_ batches: CTRFileBatches, batchSize: Int) async throws -> ImportCounts {
        Allocator.tuneForIngest()
        let lanes = settings.ingestLanes
        let pipeline = IngestPipeline(
            configuration: .init(
                group: "import",
                lanes: lanes,
                decoder: IngestDecoder(
                    topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes),
                maximumRecordsInFlight: batchSize * (lanes + 1),
                // A transaction writes at most a lane's share of a batch (a lane that falls behind
                // writes the parts queued for it together), so the write timeout holds.
                maximumRecordsPerTransaction: max(1, batchSize / lanes),
                storesOffsets: false
            ),
            client: client,
            database: database,
            logger: logger
        )
        try await pipeline.run(source: ImportedRecordSource(batches: batches), isStopping: { false })
        // The lanes committed asynchronously (as the stream's do): make every batch durable before
        // the import reports success. A crash before this loses only what the next run rewrites
        // (the version guard makes re-importing the same files idempotent).
        try await IngestPipeline.flushCommits(client: client, logger: logger)
        let totals = pipeline.totals
        return ImportCounts(
            written: totals.contactRecordsWritten, outdated: totals.contactRecordsOutdated,
            deadLetters: totals.deadLettersWritten)
    }

    /// Rewrites the business days of `flows`' stores (``AnalystCalendar``).
    public func syncBusinessDays(flows: FlowSet) async throws {
        try await AnalystCalendar.syncBusinessDays(client: client, flows: flows, logger: logger)
    }
}

/// An import's batches as the pipeline reads a source: each file's records under the topic
/// `import:<file name>`.
struct ImportedRecordSource: IngestSource {
    let batches: CTRFileBatches

    func nextBatch(maximumRecords: Int) async throws -> [SourceRecord]? {
        guard let records = try await batches.nextBatch(maximumRecords: maximumRecords) else { return nil }
        var topics: (file: String, topic: String) = ("", "")
        return records.map { record in
            if record.file != topics.file { topics = (record.file, IngestDecoder.importTopicPrefix + record.file) }
            return SourceRecord(
                topic: topics.topic, partition: record.partition, offset: record.index, key: nil, value: record.value)
        }
    }
}
