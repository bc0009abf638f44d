import ContactCenter
import Foundation
import Logging
import Metrics
import NIOPosix
import PostgresNIO
import Primitives
import Synchronization

/// Where the ingest gets its records: one pull-based batch at a time.
///
/// Declared here and implemented by the executable over the Kafka consumer, so that Storage does
/// not import the Kafka adapter. Rebalances happen inside ``nextBatch(maximumRecords:)``, while the lanes write
/// what was taken before (``IngestPipeline/release(_:)`` waits for a revoked partition's writes).
public protocol IngestSource: Sendable {
    /// The next batch of at most `maximumRecords` records (possibly empty after a bounded wait),
    /// or `nil` when the source has no more (a file import at its end; a Kafka source never ends).
    ///
    /// `maximumRecords` (at least 1) is the room left under the pipeline's in-flight bound
    /// (``IngestPipeline/Configuration/maximumRecordsInFlight``): a source that returns more
    /// takes the pipeline's memory past it.
    func nextBatch(maximumRecords: Int) async throws -> [SourceRecord]?

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
        /// Concurrent writers (each claimed partition goes to the one with the fewest).
        public var lanes: Int
        /// How records are decoded.
        public var decoder: IngestDecoder
        /// The longest pause between retries of a failed write: after an outage, the first
        /// write follows the database's return within this pause plus one connection and write.
        public var maximumBackoff: Duration
        /// How long one batch write may take before it is abandoned (its connection closed, so
        /// the server rolls it back) and retried. Each retry after a timeout gets twice the time
        /// of the attempt before it, up to ``longestWriteTimeout``.
        public var writeTimeout: Duration
        /// The longest time a retried attempt gets: eight write timeouts.
        public var longestWriteTimeout: Duration { writeTimeout * 8 }
        /// How long the oldest batch taken from the source may wait to be written before the
        /// pipeline counts as stalled (``Health/isStalled``); by default two write timeouts and a
        /// retry pause, longer than any batch waits while writes work or fail visibly.
        public var stallThreshold: Duration
        /// The most source records taken and not yet written (decoded, queued for a lane, or
        /// being written). The source is asked for no more than the room left under it, and for
        /// nothing while none is left: with the source's own buffer, this bounds the pipeline's
        /// memory.
        public var maximumRecordsInFlight: Int
        /// The most source records one transaction writes. A lane writes every batch queued for
        /// it while it wrote the previous one in one transaction, up to this many records (a
        /// single batch larger than this is written whole).
        public var maximumRecordsPerTransaction: Int
        /// Whether every batch stores its partitions' next offsets under the claims (the Kafka
        /// ingest); `false` for sources without offsets (file imports).
        public var storesOffsets: Bool
        /// Whether a batch's `COMMIT` waits for its WAL to reach the disk (PostgreSQL's
        /// `synchronous_commit`). Off by default: a PostgreSQL crash can then lose the last
        /// commits (at most three `wal_writer_delay`s, 600 ms by default), but rows and offsets
        /// always together, so the worker's next write finds the offsets behind its claims, is
        /// fenced, re-joins and reads those records from Kafka again. Exactly once holds; the
        /// lanes stop waiting for a disk flush after every batch. A source without offsets (an
        /// import) has nothing to re-read from: it ends with ``flushCommits(client:logger:)``
        /// before it reports success.
        public var synchronousCommit: Bool

        /// Creates a configuration.
        public init(
            group: String,
            lanes: Int = 2,
            decoder: IngestDecoder = IngestDecoder(),
            maximumBackoff: Duration = .seconds(1),
            writeTimeout: Duration = .seconds(10),
            stallThreshold: Duration? = nil,
            maximumRecordsInFlight: Int = 16_000,
            maximumRecordsPerTransaction: Int = 8_000,
            storesOffsets: Bool = true,
            synchronousCommit: Bool = false
        ) {
            self.group = group
            self.lanes = max(1, lanes)
            self.decoder = decoder
            self.maximumBackoff = maximumBackoff
            self.writeTimeout = writeTimeout
            self.stallThreshold = stallThreshold ?? writeTimeout * 2 + maximumBackoff
            self.maximumRecordsInFlight = max(1, maximumRecordsInFlight)
            self.maximumRecordsPerTransaction = max(1, maximumRecordsPerTransaction)
            self.storesOffsets = storesOffsets
            self.synchronousCommit = synchronousCommit
        }
    }

    /// The pipeline's health as readiness sees it.
    public struct Health: Sendable, Hashable {
        /// Whether the last write succeeded (or none failed since start).
        public var databaseWritable: Bool = true
        /// The last write error, if the last write failed.
        public var lastError: String?
        /// Transactions written since start (a lane writes the batches queued for it together).
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
                return "stalled: the oldest unwritten batch has waited \(Int(age.inSeconds)) s"
            }
            return nil
        }
    }

    let configuration: Configuration
    let writer: IngestWriter
    private let connections: WriteConnections
    private let offsets: OffsetStore
    let logger: Logger
    let claims = Mutex<[PartitionKey: PartitionClaim]>([:])
    let healthState: Mutex<HealthState>
    let metrics: IngestMetrics

    /// What ``health`` is computed from, and the lanes' scheduling, under one lock.
    struct HealthState {
        var health = Health()
        /// Which lane writes what, and what is taken and not yet written: the pipeline performs
        /// the actions it returns.
        var scheduler: LaneScheduler
        /// What every write since start did, summed.
        var totals = IngestWriteSummary()
        /// Parts decoded and queued for their lanes since start.
        var partsQueued = 0
    }

    /// One lane's part of a batch taken from the source, decoded.
    struct LaneWork: Sendable {
        /// The part as the scheduler accounts for it once written.
        var receipt: LaneScheduler.Receipt
        var batch: IngestBatch
    }

    /// Creates a pipeline that claims partitions through `client` and writes batches on
    /// connections of its own to `database` (the same database).
    public init(configuration: Configuration, client: PostgresClient, database: DatabaseConfiguration, logger: Logger) {
        self.configuration = configuration
        self.connections = WriteConnections(
            database: database, sessionParameters: Self.sessionParameters(configuration), logger: logger)
        self.writer = IngestWriter(connections: connections, group: configuration.group, logger: logger)
        self.offsets = OffsetStore(client: client, group: configuration.group, logger: logger)
        self.logger = logger
        self.metrics = IngestMetrics()
        self.healthState = Mutex(
            HealthState(
                scheduler: LaneScheduler(
                    lanes: configuration.lanes, maximumRecordsInFlight: configuration.maximumRecordsInFlight)))
    }

    /// The run-time parameters of the writer's sessions.
    static func sessionParameters(_ configuration: Configuration) -> [(String, String)] {
        // A batch's rows pass through tuplestores and hashes (the rollup triggers' transition
        // tables hold whole rows, `raw` included; the upkeep's joins): with the default 4 MB of
        // work_mem a large batch spills to temporary files.
        var parameters = [("work_mem", "64MB")]
        // PostgreSQL notices that a client has gone only when it next reads from it: a session
        // whose worker was killed, or partitioned away, mid-statement would run its statement to
        // the end and keep its row locks (the partitions' offset rows among them) while the
        // worker that took the partitions over waits for them. With this it checks the socket
        // every 2 s while a statement runs and ends the session (PostgreSQL ≥ 14, Linux).
        parameters.append(("client_connection_check_interval", "2s"))
        if !configuration.synchronousCommit { parameters.append(("synchronous_commit", "off")) }
        return parameters
    }

    /// The current health (for readiness and tests).
    public var health: Health {
        let now = ContinuousClock.now
        return healthState.withLock { state in
            var health = state.health
            health.oldestUnwrittenBatchAge = state.scheduler.oldestTaken.map { now - $0 }
            health.isStalled = (health.oldestUnwrittenBatchAge ?? .zero) > configuration.stallThreshold
            return health
        }
    }

    /// What every write since start did, summed (an import's outcome).
    public var totals: IngestWriteSummary { healthState.withLock { $0.totals } }

    /// Claims partitions assigned to this worker and returns where each resumes (`nil`: from the
    /// beginning). Call from the source's assignment handler.
    public func claim(_ partitions: [PartitionKey]) async throws -> [PartitionKey: Int64?] {
        let claimed = try await offsets.claim(partitions)
        claims.withLock { current in
            for (partition, claim) in claimed { current[partition] = claim }
        }
        assignLanes(to: partitions)
        logger.info("claimed partitions", metadata: ["count": "\(claimed.count)"])
        return claimed.mapValues(\.nextOffset)
    }

    /// The stored next offsets of the group (for lag).
    public func storedOffsets() async throws -> [PartitionKey: Int64] {
        try await offsets.nextOffsets()
    }

    /// Forgets partitions revoked from this worker, after the lanes wrote what was taken of them
    /// (at most ``Configuration/writeTimeout`` later): their new owner then resumes after it,
    /// instead of fencing this worker's late writes. Nothing more is written for them.
    public func release(_ partitions: [PartitionKey]) async {
        let deadline = ContinuousClock.now + configuration.writeTimeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            let action = healthState.withLock { $0.scheduler.release(partitions) }
            guard action == .waitForWrites else { break }
            try? await Task.sleep(for: .milliseconds(5))
        }
        claims.withLock { current in
            for partition in partitions { current[partition] = nil }
        }
    }

    /// Pulls and writes batches until `isStopping` returns `true` after a batch, the source is
    /// exhausted (`nextBatch(maximumRecords:)` returns `nil`), the task is cancelled, or a write is fenced.
    ///
    /// Each lane writes its own queue of batches, one transaction after the other, without
    /// waiting for the other lanes, so every lane's connection stays busy while the records of
    /// the next batches are pulled and decoded. The batches queued for a lane while it wrote are
    /// written together in its next transaction (up to ``Configuration/maximumRecordsPerTransaction``
    /// records): a lane that falls behind writes fewer, larger transactions instead of many small
    /// ones. A partition stays on one lane while anything of it is queued or being written, so
    /// its batches are written strictly in order and its offsets only move forward. At most
    /// ``Configuration/maximumRecordsInFlight`` source records are taken and not yet written.
    /// When stopping, what was taken is written first.
    ///
    /// - Throws: ``StorageError`` `.fenced` when another worker owns a partition now; errors of
    ///   the source; `CancellationError` when cancelled (what was queued is then not written).
    public func run(source: some IngestSource, isStopping: @escaping @Sendable () -> Bool) async throws {
        defer {
            forgetUnwritten()
            connections.closeIdle()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            var queues: [LaneQueue] = []
            for _ in 0..<configuration.lanes {
                let queue = LaneQueue()
                queues.append(queue)
                group.addTask {
                    defer { wake.yield() }
                    let limit = self.configuration.maximumRecordsPerTransaction
                    var queued = queue.wakeups.makeAsyncIterator()
                    while let works = queue.take(maximumRecords: limit) {
                        if works.isEmpty {
                            guard await queued.next() != nil, !Task.isCancelled else { break }
                            continue
                        }
                        let batch = works.count == 1 ? works[0].batch : IngestBatch(merging: works.map(\.batch))
                        try await self.writeWithRetry(batch)
                        let action = self.written(works.map(\.receipt))
                        if self.configuration.storesOffsets { source.committed(batch.nextOffsets) }
                        if action == .wakePump { wake.yield() }
                    }
                }
            }
            group.addTask {
                defer { for queue in queues { queue.finish() } }
                try await self.pump(source: source, into: queues, wakeups: wakeups, isStopping: isStopping)
            }
            group.addTask { await self.reportUnwrittenAge() }
            // The first lane or pump failure ends the run (the others are cancelled); the pump
            // ends normally when stopping, the lanes once their queues are written.
            var running = configuration.lanes + 1
            while running > 0, try await group.next() != nil { running -= 1 }
            group.cancelAll()
        }
        // Cancelled, the pump and the lanes end without an error, and what was queued is not
        // written: returning would tell the caller (an import) that its source was exhausted.
        try Task.checkCancellation()
    }

    /// Decodes and writes one batch of records (the whole batch commits, lane by lane).
    public func process(_ records: [SourceRecord]) async throws {
        let now = ContinuousClock.now
        let action = healthState.withLock { $0.scheduler.take(records, at: now) }
        defer { forgetUnwritten() }
        guard case .decode(let parts) = action else { return }
        let lanes = await decode(parts)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (_, work) in lanes {
                group.addTask {
                    try await self.writeWithRetry(work.batch)
                    self.written([work.receipt])
                }
            }
            try await group.waitForAll()
        }
    }

    /// Pulls batches from the source, decodes them and queues each lane's part, while fewer than
    /// ``Configuration/maximumRecordsInFlight`` records are taken and not yet written.
    ///
    /// A batch is decoded while the pump already waits for the next one: the source's wait (a
    /// Kafka fetch, on the consumer's thread) and the decoding (on the blocking pool's threads)
    /// overlap instead of taking turns. Each batch's hand-off to the lanes waits for the one
    /// before it, so every lane queues its parts in the order they were taken.
    private func pump(
        source: some IngestSource,
        into queues: [LaneQueue],
        wakeups: AsyncStream<Void>,
        isStopping: @escaping @Sendable () -> Bool
    ) async throws {
        // The latest batch's decoding and hand-off (it awaits the one before it).
        var handOff: Task<Void, Never>? = nil
        do {
            try await pumpBatches(
                source: source, wakeups: wakeups, isStopping: isStopping
            ) { parts in
                let previous = handOff
                handOff = Task {
                    let works = await self.decode(parts)
                    await previous?.value
                    for work in works { queues[work.lane].append(work.work) }
                    self.healthState.withLock { $0.partsQueued += works.count }
                }
            }
        } catch {
            await handOff?.value
            throw error
        }
        // The queues are finished after this returns: every part taken is queued first.
        await handOff?.value
    }

    /// The pump's loop: waits for room under the bound, takes a batch from the source and
    /// passes its parts to `decodeAndQueue`, until the source ends, `isStopping` or cancellation.
    private func pumpBatches(
        source: some IngestSource,
        wakeups: AsyncStream<Void>,
        isStopping: @escaping @Sendable () -> Bool,
        decodeAndQueue: ([LaneScheduler.Part]) -> Void
    ) async throws {
        var wakeup = wakeups.makeAsyncIterator()
        let clock = ContinuousClock()
        while !Task.isCancelled && !isStopping() {
            var room = 0
            let waitStart = clock.now
            pulling: while true {
                switch healthState.withLock({ $0.scheduler.pull() }) {
                case .pull(let maximumRecords):
                    room = maximumRecords
                    break pulling
                case .waitForWrite:
                    // The lane whose write makes room wakes the pump (every lane also does when it ends).
                    guard await wakeup.next() != nil, !Task.isCancelled else { return }
                }
            }
            let pollStart = clock.now
            metrics.spent(pollStart - waitStart, in: .queue)
            // Only the room left: a full batch taken just under the bound would hold up to a
            // batch more than the bound in memory, at every lane's commit.
            guard let records = try await source.nextBatch(maximumRecords: room) else { return }
            let now = clock.now
            metrics.spent(now - pollStart, in: .poll)
            let action = healthState.withLock { $0.scheduler.take(records, at: now) }
            guard case .decode(let parts) = action else { continue }
            decodeAndQueue(parts)
        }
    }

    /// Decodes the parts of a batch (each lane's, as ``LaneScheduler/take(_:at:)`` spread it)
    /// concurrently.
    private func decode(_ parts: [LaneScheduler.Part]) async -> [(lane: Int, work: LaneWork)] {
        let decoder = configuration.decoder
        let metrics = self.metrics
        let cutoff = IngestDecoder.receivedCutoff(now: UTCTimestamp(Date()))
        return await withTaskGroup(of: (lane: Int, work: LaneWork).self) { group in
            for part in parts {
                group.addTask {
                    let batch = await Self.offPool {
                        let start = ContinuousClock.now
                        defer { metrics.spent(ContinuousClock.now - start, in: .decode) }
                        return decoder.decode(part.records, receivedBefore: cutoff)
                    }
                    return (lane: part.lane, work: LaneWork(receipt: part.receipt, batch: batch))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The lane that writes a partition's records (``LaneScheduler/lane(of:)``).
    func lane(of partition: PartitionKey) -> Int {
        healthState.withLock { $0.scheduler.lane(of: partition) }
    }

    /// Gives each of `partitions` (just claimed) that has nothing in flight the lane with the
    /// fewest claimed partitions (``LaneScheduler/claimed(_:among:)``), under the lock with which
    /// the pump marks parts in flight.
    private func assignLanes(to partitions: [PartitionKey]) {
        let claimed = claims.withLock { Set($0.keys) }
        healthState.withLock { _ = $0.scheduler.claimed(partitions, among: claimed) }
    }
}

extension IngestPipeline {
    /// Runs `work` (tens of milliseconds of CPU: a lane's part decoded) on NIO's blocking pool's
    /// threads instead of Swift's cooperative pool, which has one thread per core: there it
    /// would hold a thread for its whole length, and the lanes' continuations (a statement's
    /// answer, the next statement) would wait behind it while their PostgreSQL sessions sit idle
    /// in their transactions. On threads of their own the kernel shares the cores between them.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        do {
            return try await NIOThreadPool.singleton.runIfActive(work)
        } catch {
            // The task was cancelled before the pool ran `work` (`CancellationError`), or the pool
            // is inactive (the singleton is never shut down): the part is decoded here, as a
            // cancelled pump's parts always were.
            return work()
        }
    }

    /// A lane wrote these parts (the batch is written once all its parts are): returns whether
    /// to wake the pump.
    @discardableResult
    fileprivate func written(_ receipts: [LaneScheduler.Receipt]) -> LaneScheduler.WrittenAction {
        let action = healthState.withLock { $0.scheduler.written(receipts) }
        metrics.oldestUnwrittenBatchAge.record(health.oldestUnwrittenBatchAge?.inSeconds ?? 0)
        return action
    }

    /// No batch waits any more (the pipeline stopped).
    fileprivate func forgetUnwritten() {
        healthState.withLock { $0.scheduler.stopped() }
        metrics.oldestUnwrittenBatchAge.record(0)
    }

    /// Publishes the age of the oldest unwritten batch every second: it grows while a write
    /// waits, whether or not anything reports an error.
    fileprivate func reportUnwrittenAge() async {
        while !Task.isCancelled {
            metrics.oldestUnwrittenBatchAge.record(health.oldestUnwrittenBatchAge?.inSeconds ?? 0)
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
