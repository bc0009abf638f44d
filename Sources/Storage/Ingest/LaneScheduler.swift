/// Which lane writes which records, and how much is taken and not yet written: the ingest
/// pipeline's scheduling as a pure state machine.
///
/// Each `mutating` method takes one event (the pump wants records, a batch was taken, a lane
/// wrote, partitions were claimed) and returns what the caller does next, in the shape of
/// postgres-nio's connection state machines. It does no I/O, reads no clock (the instant a batch
/// is taken is an argument) and takes no lock: ``IngestPipeline`` holds it under its own lock
/// and performs the actions.
///
/// ```swift
/// var scheduler = LaneScheduler(lanes: 2, maximumRecordsInFlight: 16_000)
/// guard case .pull(let room) = scheduler.pull() else { return }  // else wait for a write
/// if case .decode(let parts) = scheduler.take(records, at: .now) { /* decode, queue by lane */ }
/// if scheduler.written(receipts) == .wakePump { /* wake the pump */ }
/// ```
///
/// Invariants it keeps:
/// - A partition's records go to one lane while any part of it is taken and not yet written,
///   so its batches are written in order and its offsets only move forward.
/// - At most ``maximumRecordsInFlight`` source records are taken and not yet written: the pump
///   is told the room left, or to wait, and woken by the write that makes room again.
struct LaneScheduler: Sendable, Equatable {
    /// One lane's share of a batch taken from the source: the records to decode and queue on it.
    struct Part: Sendable, Hashable {
        /// The number of the batch taken from the source that it belongs to.
        var batch: Int
        /// The lane that writes it.
        var lane: Int
        /// Its records, in the order the source gave them.
        var records: [SourceRecord]
        /// The partitions its records belong to.
        var partitions: Set<PartitionKey>

        /// What the lane hands back to ``LaneScheduler/written(_:)`` once the part is written.
        var receipt: Receipt { Receipt(batch: batch, records: records.count, partitions: partitions) }
    }

    /// A written part, as ``written(_:)`` accounts for it.
    struct Receipt: Sendable, Hashable {
        /// The number of the batch the part belongs to.
        var batch: Int
        /// Its source records.
        var records: Int
        /// The partitions its records belong to.
        var partitions: Set<PartitionKey>
    }

    /// A batch taken from the source and not yet written.
    struct Unwritten: Sendable, Hashable {
        /// When it was taken.
        var taken: ContinuousClock.Instant
        /// Its parts still to be written.
        var parts: Int
    }

    /// What the pump does next (``pull()``).
    enum PullAction: Sendable, Hashable {
        /// Ask the source for at most this many records: the room left under the bound.
        case pull(maximumRecords: Int)
        /// Wait until a write is told to wake the pump (``WrittenAction/wakePump``).
        case waitForWrite
    }

    /// What follows a batch taken from the source (``take(_:at:)``).
    enum TakeAction: Sendable, Hashable {
        /// Nothing: the batch was empty.
        case none
        /// Decode each part and queue it on its lane.
        case decode([Part])
    }

    /// What follows a lane's write (``written(_:)``).
    enum WrittenAction: Sendable, Hashable {
        /// Nothing: the pump does not wait, or still has no room.
        case none
        /// Wake the pump: it waits, and the write left room under the bound.
        case wakePump
    }

    /// What releasing revoked partitions does now (``release(_:)``).
    enum ReleaseAction: Sendable, Hashable {
        /// Forget their claims: nothing of them is taken and not yet written.
        case forgetClaims
        /// Wait for the lanes to write what was taken of them, then ask again.
        case waitForWrites
    }

    /// The concurrent writers (at least 1).
    let lanes: Int
    /// The most source records taken and not yet written (at least 1).
    let maximumRecordsInFlight: Int
    /// The batches taken and not yet written, by number.
    private(set) var unwritten: [Int: Unwritten] = [:]
    /// The number of the next batch taken.
    private(set) var nextBatch = 0
    /// Source records taken and not yet written.
    private(set) var recordsInFlight = 0
    /// Per partition, its parts taken and not yet written.
    private(set) var partsInFlight: [PartitionKey: Int] = [:]
    /// The lane of each partition claimed so far (``claimed(_:among:)``); others go by their number.
    private(set) var laneAssignments: [PartitionKey: Int] = [:]
    /// Whether the pump waits for a write (it was told ``PullAction/waitForWrite``).
    private(set) var pumpWaits = false

    /// Creates a scheduler with nothing in flight and no partition assigned.
    init(lanes: Int, maximumRecordsInFlight: Int) {
        self.lanes = max(1, lanes)
        self.maximumRecordsInFlight = max(1, maximumRecordsInFlight)
    }

    /// When the oldest batch taken and not yet written was taken; `nil` when every one is written.
    var oldestTaken: ContinuousClock.Instant? { unwritten.values.map(\.taken).min() }

    /// The pump wants records: how many it may take, or that it waits for a write.
    mutating func pull() -> PullAction {
        guard recordsInFlight < maximumRecordsInFlight else {
            pumpWaits = true
            return .waitForWrite
        }
        pumpWaits = false
        return .pull(maximumRecords: maximumRecordsInFlight - recordsInFlight)
    }

    /// A batch of `records` was taken from the source at `now`: spreads it over the lanes by
    /// partition and marks every part in flight.
    ///
    /// Lanes are chosen and parts marked in one step: a claim cannot move a partition between
    /// the two, which would queue its records on two lanes (out of order; the later part would
    /// store offsets past the earlier one, which would then be fenced and its records lost).
    mutating func take(_ records: [SourceRecord], at now: ContinuousClock.Instant) -> TakeAction {
        guard !records.isEmpty else { return .none }
        let number = nextBatch
        nextBatch += 1
        var byLane = [[SourceRecord]](repeating: [], count: lanes)
        var partitions = [Set<PartitionKey>](repeating: [], count: lanes)
        for record in records {
            let key = record.partitionKey
            let lane = lane(of: key)
            byLane[lane].append(record)
            partitions[lane].insert(key)
        }
        let parts = byLane.indices.filter { !byLane[$0].isEmpty }.map { lane in
            Part(batch: number, lane: lane, records: byLane[lane], partitions: partitions[lane])
        }
        unwritten[number] = Unwritten(taken: now, parts: parts.count)
        recordsInFlight += records.count
        for partition in partitions.joined() { partsInFlight[partition, default: 0] += 1 }
        return .decode(parts)
    }

    /// A lane wrote `receipts`' parts (in one transaction): frees their records and partitions,
    /// and wakes the pump if it waits and there is room now.
    mutating func written(_ receipts: [Receipt]) -> WrittenAction {
        for receipt in receipts {
            recordsInFlight -= receipt.records
            for partition in receipt.partitions {
                let parts = (partsInFlight[partition] ?? 1) - 1
                partsInFlight[partition] = parts > 0 ? parts : nil
            }
            guard let entry = unwritten[receipt.batch] else { continue }
            unwritten[receipt.batch] = entry.parts > 1 ? Unwritten(taken: entry.taken, parts: entry.parts - 1) : nil
        }
        guard pumpWaits, recordsInFlight < maximumRecordsInFlight else { return .none }
        pumpWaits = false
        return .wakePump
    }

    /// `partitions` were just claimed (`claimed` holds every partition claimed now, these
    /// included): gives each with nothing in flight the lane with the fewest claimed partitions.
    ///
    /// A worker's partitions are spread evenly over its lanes whatever their number (a hash would
    /// not: Swift seeds it per process, and it would put all four partitions of a worker on one
    /// lane one time in eight, three one time in two). A partition with parts still in flight
    /// (its release timed out) keeps its lane, so its batches stay in order; nothing of the
    /// others is queued, so the move is safe.
    ///
    /// - Returns: The lanes given, by partition (empty with one lane: every record goes to it).
    mutating func claimed(_ partitions: [PartitionKey], among claimed: Set<PartitionKey>) -> [PartitionKey: Int] {
        guard lanes > 1 else { return [:] }
        let moving = Set(partitions).subtracting(partsInFlight.keys)
        var load = [Int](repeating: 0, count: lanes)
        for (partition, lane) in laneAssignments where claimed.contains(partition) && !moving.contains(partition) {
            load[lane] += 1
        }
        var given: [PartitionKey: Int] = [:]
        for partition in moving.sorted() {
            let lane = load.indices.min { load[$0] < load[$1] }!
            laneAssignments[partition] = lane
            given[partition] = lane
            load[lane] += 1
        }
        return given
    }

    /// `partitions` were revoked: whether their claims can be forgotten now, or the lanes still
    /// write what was taken of them (their new owner would otherwise fence those writes).
    func release(_ partitions: [PartitionKey]) -> ReleaseAction {
        partitions.contains { partsInFlight[$0] != nil } ? .waitForWrites : .forgetClaims
    }

    /// The pipeline stopped: no batch waits any more, and nothing is in flight. The lanes given
    /// to partitions stay.
    mutating func stopped() {
        unwritten = [:]
        recordsInFlight = 0
        partsInFlight = [:]
        pumpWaits = false
    }

    /// The lane that writes a partition's records: the one ``claimed(_:among:)`` gave it, else
    /// the one its number gives (the import's pseudo-partitions: a contact's copies take one lane
    /// in every file).
    func lane(of partition: PartitionKey) -> Int {
        guard lanes > 1 else { return 0 }
        return laneAssignments[partition] ?? Int(UInt32(bitPattern: partition.partition) % UInt32(lanes))
    }
}
