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
/// partition still has exactly one writer. A write that fails on the database or does not finish
/// within ``Configuration/writeTimeout`` is retried with bounded backoff (the batch is kept,
/// nothing is lost) while readiness reports the failure; a fenced write ends
/// ``run(source:isStopping:)`` with ``StorageError`` `.fenced` so the caller re-joins the group.
///
/// Writes go through connections of the pipeline's own (``WriteConnections``), not the client's
/// pool, so every write ends within its deadline and the first write after a database outage
/// follows the database's return within ``Configuration/maximumBackoff`` plus one write.
public final class IngestPipeline: Sendable {
    /// Settings of the pipeline.
    public struct Configuration: Sendable {
        /// The consumer group whose offsets the pipeline keeps.
        public var group: String
        /// Concurrent writers (partitions are hashed onto them).
        public var lanes: Int
        /// How records are decoded.
        public var decoder: IngestDecoder
        /// The longest pause between retries of a failed write: after an outage, the first
        /// write follows the database's return within this pause plus one connection and write.
        public var maximumBackoff: Duration
        /// How long one batch write may take before it is abandoned (its connection closed, so
        /// the server rolls it back) and retried.
        public var writeTimeout: Duration
        /// How long the oldest batch taken from the source may wait to be written before the
        /// pipeline counts as stalled (``Health/isStalled``); by default two write timeouts and a
        /// retry pause, longer than any batch waits while writes work or fail visibly.
        public var stallThreshold: Duration

        /// Creates a configuration.
        public init(
            group: String,
            lanes: Int = 2,
            decoder: IngestDecoder = IngestDecoder(),
            maximumBackoff: Duration = .seconds(1),
            writeTimeout: Duration = .seconds(10),
            stallThreshold: Duration? = nil
        ) {
            self.group = group
            self.lanes = max(1, lanes)
            self.decoder = decoder
            self.maximumBackoff = maximumBackoff
            self.writeTimeout = writeTimeout
            self.stallThreshold = stallThreshold ?? writeTimeout * 2 + maximumBackoff
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
        /// How long the oldest batch taken from the source has waited to be written; `nil` when
        /// every batch taken was written.
        public var oldestUnwrittenBatchAge: Duration?
        /// Whether that batch has waited longer than ``Configuration/stallThreshold``: writing
        /// does not progress, whether or not an error was reported.
        public var isStalled: Bool = false

        /// Why the pipeline is not ready, or `nil` when it is.
        public var problem: String? {
            if !databaseWritable { return "writes failing, retrying: \(lastError ?? "")" }
            if isStalled, let age = oldestUnwrittenBatchAge {
                return "stalled: the oldest unwritten batch has waited \(Int(age.seconds)) s"
            }
            return nil
        }
    }

    let configuration: Configuration
    let writer: IngestWriter
    private let connections: WriteConnections
    private let offsets: OffsetStore
    let logger: Logger
    let claims = NIOLockedValueBox<[PartitionKey: PartitionClaim]>([:])
    let healthState = NIOLockedValueBox(HealthState())
    let metrics: IngestMetrics

    /// What ``health`` is computed from.
    struct HealthState {
        var health = Health()
        /// When each batch taken from the source and not yet written was taken, oldest first
        /// (writes finish in the order batches were taken).
        var unwritten: [ContinuousClock.Instant] = []
    }

    /// Creates a pipeline that claims partitions through `client` and writes batches on
    /// connections of its own to `database` (the same database).
    public init(configuration: Configuration, client: PostgresClient, database: DatabaseConfiguration, logger: Logger) {
        self.configuration = configuration
        self.connections = WriteConnections(database: database, logger: logger)
        self.writer = IngestWriter(connections: connections, group: configuration.group, logger: logger)
        self.offsets = OffsetStore(client: client, group: configuration.group, logger: logger)
        self.logger = logger
        self.metrics = IngestMetrics()
    }

    /// The current health (for readiness and tests).
    public var health: Health {
        let now = ContinuousClock.now
        return healthState.withLockedValue { state in
            var health = state.health
            health.oldestUnwrittenBatchAge = state.unwritten.first.map { now - $0 }
            health.isStalled = (health.oldestUnwrittenBatchAge ?? .zero) > configuration.stallThreshold
            return health
        }
    }

    /// Claims partitions assigned to this worker and returns where each resumes (`nil`: from the
    /// beginning). Call from the source's assignment handler.
    public func claim(_ partitions: [PartitionKey]) async throws -> [PartitionKey: Int64?] {
        let claimed = try await offsets.claim(partitions)
        claims.withLockedValue { current in
            for (partition, claim) in claimed { current[partition] = claim }
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
        defer {
            forgetUnwritten()
            connections.closeIdle()
        }
        try await withThrowingTaskGroup(of: Void.self) { reporting in
            reporting.addTask { await self.reportUnwrittenAge() }
            defer { reporting.cancelAll() }
            try await pump(source: source, isStopping: isStopping)
        }
    }

    /// Decodes and writes one batch of records (the whole batch commits, lane by lane).
    public func process(_ records: [SourceRecord]) async throws {
        taken()
        defer { forgetUnwritten() }
        try await write(await decode(records))
    }

    private func pump(source: some IngestSource, isStopping: @escaping @Sendable () -> Bool) async throws {
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
                taken()
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
        written()
    }
}

extension IngestPipeline {
    /// A batch was taken from the source.
    fileprivate func taken() {
        let now = ContinuousClock.now
        healthState.withLockedValue { $0.unwritten.append(now) }
    }

    /// The oldest batch taken was written.
    fileprivate func written() {
        healthState.withLockedValue { state in
            if !state.unwritten.isEmpty { state.unwritten.removeFirst() }
        }
        metrics.oldestUnwrittenBatchAge.record(health.oldestUnwrittenBatchAge?.seconds ?? 0)
    }

    /// No batch waits any more (the pipeline stopped).
    fileprivate func forgetUnwritten() {
        healthState.withLockedValue { $0.unwritten = [] }
        metrics.oldestUnwrittenBatchAge.record(0)
    }

    /// Publishes the age of the oldest unwritten batch every second: it grows while a write
    /// waits, whether or not anything reports an error.
    fileprivate func reportUnwrittenAge() async {
        while !Task.isCancelled {
            metrics.oldestUnwrittenBatchAge.record(health.oldestUnwrittenBatchAge?.seconds ?? 0)
            try? await Task.sleep(for: .seconds(1))
        }
    }
}

extension Duration {
    /// The duration in seconds, with fractions.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
