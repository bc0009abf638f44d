import Logging
import Metrics
import NIOConcurrencyHelpers
import PostgresNIO

/// Where the ingest gets its records: one pull-based batch at a time.
///
/// Declared here and implemented by the executable over the Kafka consumer, so that Storage does
/// not import the Kafka adapter. Rebalances happen inside ``nextBatch()``, between writes.
public protocol IngestSource: Sendable {
    /// The next batch of records (possibly empty after a bounded wait).
    func nextBatch() async throws -> [SourceRecord]

    /// Told after each commit in PostgreSQL, with the partitions' next offsets it stored (the
    /// truth for exactly-once). A Kafka source mirrors them to the broker for lag tooling; it
    /// must not block or throw.
    func committed(_ nextOffsets: [PartitionKey: Int64])
}

extension IngestSource {
    public func committed(_ nextOffsets: [PartitionKey: Int64]) {}
}

/// The ingest loop: pull a batch, decode it, write it with its offsets, repeat.
///
/// Partitions are spread over ``Configuration/lanes`` concurrent writers (each with its own
/// connection and transaction), so decoding and PostgreSQL's work run in parallel while every
/// partition still has exactly one writer. A write that fails on the database is retried with
/// bounded backoff (the batch is kept, nothing is lost) while readiness reports the failure; a
/// fenced write ends ``run(source:isStopping:)`` with ``StorageError`` `.fenced` so the caller
/// re-joins the group.
public final class IngestPipeline: Sendable {
    /// Settings of the pipeline.
    public struct Configuration: Sendable {
        /// The consumer group whose offsets the pipeline keeps.
        public var group: String
        /// Concurrent writers (partitions are hashed onto them).
        public var lanes: Int
        /// How records are decoded.
        public var decoder: IngestDecoder
        /// The longest pause between retries of a failed write.
        public var maximumBackoff: Duration
        /// How long one batch write may take before it is abandoned (rolled back) and retried.
        public var writeTimeout: Duration

        /// Creates a configuration.
        public init(
            group: String,
            lanes: Int = 2,
            decoder: IngestDecoder = IngestDecoder(),
            maximumBackoff: Duration = .seconds(5),
            writeTimeout: Duration = .seconds(10)
        ) {
            self.group = group
            self.lanes = max(1, lanes)
            self.decoder = decoder
            self.maximumBackoff = maximumBackoff
            self.writeTimeout = writeTimeout
        }
    }

    /// The pipeline's health as readiness sees it.
    public struct Health: Sendable, Hashable {
        /// Whether the last write succeeded (or none failed since start).
        public var databaseWritable: Bool = true
        /// The last write error, if the last write failed.
        public var lastError: String?
        /// Batches written since start.
        public var batchesWritten: Int = 0
        /// Source records covered by written batches since start.
        public var recordsWritten: Int = 0
    }

    private let configuration: Configuration
    fileprivate let writer: IngestWriter
    private let offsets: OffsetStore
    private let logger: Logger
    private let claims = NIOLockedValueBox<[PartitionKey: Int64]>([:])
    private let healthState = NIOLockedValueBox(Health())
    private let metrics: IngestMetrics

    /// Creates a pipeline writing through `client`.
    public init(configuration: Configuration, client: PostgresClient, logger: Logger) {
        self.configuration = configuration
        self.writer = IngestWriter(client: client, group: configuration.group, logger: logger)
        self.offsets = OffsetStore(client: client, group: configuration.group, logger: logger)
        self.logger = logger
        self.metrics = IngestMetrics()
    }

    /// The current health (for readiness and tests).
    public var health: Health { healthState.withLockedValue { $0 } }

    /// Claims partitions assigned to this worker and returns where each resumes (`nil`: from the
    /// beginning). Call from the source's assignment handler.
    public func claim(_ partitions: [PartitionKey]) async throws -> [PartitionKey: Int64?] {
        let claimed = try await offsets.claim(partitions)
        claims.withLockedValue { current in
            for (partition, claim) in claimed { current[partition] = claim.epoch }
        }
        logger.info("claimed partitions", metadata: ["count": "\(claimed.count)"])
        return claimed.mapValues(\.nextOffset)
    }

    /// The stored next offsets of the group (for lag).
    public func storedOffsets() async throws -> [PartitionKey: Int64] {
        try await offsets.nextOffsets()
    }

    /// Forgets partitions revoked from this worker: nothing more is written for them.
    public func release(_ partitions: [PartitionKey]) {
        claims.withLockedValue { current in
            for partition in partitions { current[partition] = nil }
        }
    }

    /// Pulls and writes batches until `isStopping` returns `true` after a batch, the task is
    /// cancelled, or a write is fenced.
    ///
    /// Decoding the next batch overlaps with writing the previous one (the client's and the
    /// server's work run in parallel), but writes stay strictly in order: batch N+1 is written
    /// only after batch N committed, so every partition's offsets only move forward.
    ///
    /// - Throws: ``StorageError`` `.fenced` when another worker owns a partition now; errors of
    ///   the source.
    public func run(source: some IngestSource, isStopping: @escaping @Sendable () -> Bool) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var writing = false
            while !Task.isCancelled && !isStopping() {
                let records = try await source.nextBatch()
                guard !records.isEmpty else {
                    if writing {
                        try await group.next()
                        writing = false
                    }
                    continue
                }
                let lanes = await decode(records)
                if writing { try await group.next() }
                group.addTask {
                    try await self.write(lanes)
                    var committed: [PartitionKey: Int64] = [:]
                    for lane in lanes { committed.merge(lane.nextOffsets) { max($0, $1) } }
                    source.committed(committed)
                }
                writing = true
            }
            try await group.waitForAll()
        }
    }

    /// Decodes and writes one batch of records (the whole batch commits, lane by lane).
    public func process(_ records: [SourceRecord]) async throws {
        try await write(await decode(records))
    }

    /// Spreads records over the lanes (by partition) and decodes each lane concurrently.
    private func decode(_ records: [SourceRecord]) async -> [IngestBatch] {
        let laneCount = configuration.lanes
        var lanes = [[SourceRecord]](repeating: [], count: laneCount)
        for record in records {
            let lane = laneCount == 1 ? 0 : Int(UInt(bitPattern: record.partitionKey.hashValue) % UInt(laneCount))
            lanes[lane].append(record)
        }
        let decoder = configuration.decoder
        return await withTaskGroup(of: IngestBatch.self) { group in
            for lane in lanes where !lane.isEmpty {
                group.addTask { decoder.decode(lane) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Writes the lanes' batches concurrently, each in its own transaction.
    private func write(_ batches: [IngestBatch]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in batches {
                group.addTask { try await self.writeWithRetry(batch) }
            }
            try await group.waitForAll()
        }
    }

    private func writeWithRetry(_ batch: IngestBatch) async throws {
        let epochs = claims.withLockedValue { $0 }
        var backoff = Duration.milliseconds(100)
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            do {
                let summary = try await writeWithDeadline(batch, epochs: epochs)
                metrics.record(batch: batch, summary: summary, duration: clock.now - start)
                healthState.withLockedValue { health in
                    health.databaseWritable = true
                    health.lastError = nil
                    health.batchesWritten += 1
                    health.recordsWritten += batch.sourceRecordCount
                }
                return
            } catch let error as StorageError where error.code == .fenced {
                metrics.fencedWrites.increment()
                logger.warning("write fenced; re-joining the group", metadata: ["reason": "\(error.message)"])
                throw error
            } catch {
                if Task.isCancelled { throw error }
                let message = String(describing: error)
                healthState.withLockedValue { health in
                    health.databaseWritable = false
                    health.lastError = message
                }
                metrics.writeRetries.increment()
                logger.error("batch write failed; retrying in \(backoff)", metadata: ["error": "\(message)"])
                try await Task.sleep(for: backoff)
                backoff = min(backoff * 2, configuration.maximumBackoff)
            }
        }
    }
}

extension IngestPipeline {
    /// Writes a batch, abandoning it after ``Configuration/writeTimeout``: the pool otherwise waits
    /// for a connection as long as the database is down, and the outage would stay invisible.
    fileprivate func writeWithDeadline(_ batch: IngestBatch, epochs: [PartitionKey: Int64]) async throws
        -> IngestWriteSummary
    {
        let timeout = configuration.writeTimeout
        return try await withThrowingTaskGroup(of: IngestWriteSummary?.self) { group in
            group.addTask { try await self.writer.write(batch, epochs: epochs) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let summary = first else {
                throw StorageError(code: .timeout, message: "batch write did not finish within \(timeout)")
            }
            return summary
        }
    }
}

/// The ingest's metrics (swift-metrics; the executable exports them to Prometheus).
struct IngestMetrics: Sendable {
    let contactRecords = Counter(label: "switchboard_ingest_rows_total", dimensions: [("table", "contact_record")])
    let outdatedContactRecords = Counter(
        label: "switchboard_ingest_outdated_contact_records_total"
    )
    let agentEvents = Counter(label: "switchboard_ingest_rows_total", dimensions: [("table", "agent_event")])
    let contactEvents = Counter(label: "switchboard_ingest_rows_total", dimensions: [("table", "contact_event")])
    let sourceRecords = Counter(label: "switchboard_ingest_source_records_total")
    let batchDuration = Timer(label: "switchboard_ingest_batch_duration_seconds")
    let fencedWrites = Counter(label: "switchboard_ingest_fenced_writes_total")
    let writeRetries = Counter(label: "switchboard_ingest_write_retries_total")

    func record(batch: IngestBatch, summary: IngestWriteSummary, duration: Duration) {
        contactRecords.increment(by: summary.contactRecordsWritten)
        outdatedContactRecords.increment(by: summary.contactRecordsOutdated)
        agentEvents.increment(by: summary.agentEventsWritten)
        contactEvents.increment(by: summary.contactEventsWritten)
        sourceRecords.increment(by: batch.sourceRecordCount)
        for letter in batch.deadLetters {
            Counter(label: "switchboard_ingest_dead_letters_total", dimensions: [("reason", letter.reason.kind)])
                .increment()
        }
        batchDuration.record(duration: duration)
    }
}
