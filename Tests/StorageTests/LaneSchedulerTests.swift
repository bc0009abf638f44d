import Testing

@testable import Storage

/// Partition `number` of the contact-records topic.
private func partition(_ number: Int32) -> PartitionKey {
    PartitionKey(topic: "contact-records", partition: number)
}

/// A record of `partition` at `offset` (the scheduler never looks at the value).
private func record(_ partition: PartitionKey, _ offset: Int64) -> SourceRecord {
    SourceRecord(topic: partition.topic, partition: partition.partition, offset: offset, key: nil, value: nil)
}

/// `count` records of `partition`, from offset `first` on.
private func records(_ partition: PartitionKey, _ count: Int, from first: Int64 = 0) -> [SourceRecord] {
    (0..<Int64(count)).map { record(partition, first + $0) }
}

/// The parts of a `take` that decodes, or none.
private func parts(_ action: LaneScheduler.TakeAction) -> [LaneScheduler.Part] {
    guard case .decode(let parts) = action else { return [] }
    return parts
}

/// An instant to take batches at: the scheduler only compares and stores them.
private let start = ContinuousClock.now

@Suite("LaneScheduler: lanes, the in-flight bound, written parts, claims (no database)")
struct LaneSchedulerTests {
    @Test("a batch is spread over the lanes by partition and every part is marked in flight; an empty one is nothing")
    func takeSpreadsByPartition() {
        var scheduler = LaneScheduler(lanes: 2, maximumRecordsInFlight: 100)
        let (p0, p1, p2) = (partition(0), partition(1), partition(2))
        let batch = [record(p0, 0), record(p1, 0), record(p2, 0), record(p0, 1)]
        #expect(
            scheduler.take(batch, at: start)
                == .decode([
                    .init(
                        batch: 0, lane: 0, records: [record(p0, 0), record(p2, 0), record(p0, 1)], partitions: [p0, p2]),
                    .init(batch: 0, lane: 1, records: [record(p1, 0)], partitions: [p1]),
                ]))
        #expect(scheduler.unwritten == [0: .init(taken: start, parts: 2)])
        #expect(scheduler.recordsInFlight == 4)
        #expect(scheduler.partsInFlight == [p0: 1, p1: 1, p2: 1])
        #expect(scheduler.nextBatch == 1)
        #expect(scheduler.oldestTaken == start)

        let before = scheduler
        #expect(scheduler.take([], at: start + .seconds(1)) == LaneScheduler.TakeAction.none)
        #expect(scheduler == before)

        // The next batch of the same partitions: the next number, the same lanes, counted twice.
        let next = parts(scheduler.take([record(p0, 2), record(p1, 1)], at: start + .seconds(1)))
        #expect(next.map(\.batch) == [1, 1])
        #expect(next.map(\.lane) == [0, 1])
        #expect(scheduler.partsInFlight == [p0: 2, p1: 2, p2: 1])
        #expect(scheduler.recordsInFlight == 6)
        #expect(scheduler.oldestTaken == start)
    }

    @Test("the pump is told the room left, waits at the bound, and is woken by the write that makes room")
    func inFlightBound() {
        var scheduler = LaneScheduler(lanes: 1, maximumRecordsInFlight: 10)
        #expect(scheduler.pull() == .pull(maximumRecords: 10))
        let first = parts(scheduler.take(records(partition(0), 6), at: start))
        #expect(scheduler.pull() == .pull(maximumRecords: 4))
        #expect(!scheduler.pumpWaits)
        let second = parts(scheduler.take(records(partition(0), 4, from: 6), at: start + .seconds(1)))
        #expect(scheduler.recordsInFlight == 10)
        #expect(scheduler.pull() == .waitForWrite)
        #expect(scheduler.pumpWaits)
        // The first write leaves 4 in flight: room for 6 more, and the pump is woken to take them.
        #expect(scheduler.written(first.map(\.receipt)) == .wakePump)
        #expect(!scheduler.pumpWaits)
        #expect(scheduler.recordsInFlight == 4)
        #expect(scheduler.unwritten == [1: .init(taken: start + .seconds(1), parts: 1)])
        #expect(scheduler.oldestTaken == start + .seconds(1))
        #expect(scheduler.pull() == .pull(maximumRecords: 6))
        #expect(scheduler.written(second.map(\.receipt)) == LaneScheduler.WrittenAction.none)
        #expect(scheduler.recordsInFlight == 0)
        #expect(scheduler.partsInFlight.isEmpty)
        #expect(scheduler.oldestTaken == nil)
    }

    @Test("a write that does not make room leaves the pump waiting; the one that does wakes it once")
    func wakeOnlyWithRoom() {
        var scheduler = LaneScheduler(lanes: 1, maximumRecordsInFlight: 5)
        let first = parts(scheduler.take(records(partition(0), 5), at: start))
        // `process` takes what it is given, past the bound: the pump waits until both are written.
        let second = parts(scheduler.take(records(partition(0), 5, from: 5), at: start + .seconds(1)))
        #expect(scheduler.pull() == .waitForWrite)
        #expect(scheduler.written(first.map(\.receipt)) == LaneScheduler.WrittenAction.none)
        #expect(scheduler.recordsInFlight == 5)
        #expect(scheduler.pumpWaits)
        #expect(scheduler.written(second.map(\.receipt)) == .wakePump)
        #expect(!scheduler.pumpWaits)
        #expect(scheduler.recordsInFlight == 0)
        #expect(scheduler.pull() == .pull(maximumRecords: 5))
        // Nobody waits: a write wakes nobody.
        let third = parts(scheduler.take(records(partition(0), 2, from: 10), at: start + .seconds(2)))
        #expect(scheduler.written(third.map(\.receipt)) == LaneScheduler.WrittenAction.none)
    }

    @Test("a batch counts as written once every lane wrote its part; a lane's merged parts are accounted each")
    func partsOfABatch() {
        var scheduler = LaneScheduler(lanes: 2, maximumRecordsInFlight: 100)
        let (p0, p1) = (partition(0), partition(1))
        let first = parts(scheduler.take([record(p0, 0), record(p1, 0), record(p1, 1)], at: start))
        let second = parts(scheduler.take([record(p0, 1), record(p1, 2)], at: start + .seconds(1)))
        #expect(
            first.map(\.receipt) == [
                .init(batch: 0, records: 1, partitions: [p0]), .init(batch: 0, records: 2, partitions: [p1]),
            ])
        #expect(scheduler.partsInFlight == [p0: 2, p1: 2])

        // Lane 1 writes its parts of both batches in one transaction.
        _ = scheduler.written([first[1].receipt, second[1].receipt])
        #expect(
            scheduler.unwritten == [0: .init(taken: start, parts: 1), 1: .init(taken: start + .seconds(1), parts: 1)])
        #expect(scheduler.partsInFlight == [p0: 2])
        #expect(scheduler.recordsInFlight == 2)
        #expect(scheduler.oldestTaken == start)

        // Lane 0 writes the first batch's part: that batch is written; the second still waits.
        _ = scheduler.written([first[0].receipt])
        #expect(scheduler.unwritten == [1: .init(taken: start + .seconds(1), parts: 1)])
        #expect(scheduler.partsInFlight == [p0: 1])
        #expect(scheduler.oldestTaken == start + .seconds(1))

        _ = scheduler.written([second[0].receipt])
        #expect(scheduler.unwritten.isEmpty)
        #expect(scheduler.partsInFlight.isEmpty)
        #expect(scheduler.recordsInFlight == 0)
        #expect(scheduler.oldestTaken == nil)
    }

    @Test("claimed partitions go to the lane with the fewest; later claims fill the lighter lane")
    func claimsBalanceTheLanes() {
        var scheduler = LaneScheduler(lanes: 2, maximumRecordsInFlight: 100)
        let topic = (0..<4).map { partition(Int32($0)) }
        let events = (0..<3).map { PartitionKey(topic: "agent-events", partition: Int32($0)) }
        #expect(
            scheduler.claimed(topic, among: Set(topic))
                == [topic[0]: 0, topic[1]: 1, topic[2]: 0, topic[3]: 1])
        #expect(
            scheduler.claimed([events[0]], among: Set(topic + [events[0]])) == [events[0]: 0])
        #expect(
            scheduler.claimed([events[1], events[2]], among: Set(topic + events))
                == [events[1]: 1, events[2]: 0])
        #expect(scheduler.laneAssignments.count == 7)

        // Released partitions no longer weigh: a partition claimed alone takes lane 0, and its
        // records go there, where its number would give lane 1.
        let alone = PartitionKey(topic: "contact-events", partition: 9)
        #expect(scheduler.claimed([alone], among: [alone]) == [alone: 0])
        #expect(scheduler.lane(of: alone) == 0)
        #expect(parts(scheduler.take([record(alone, 0)], at: start)).map(\.lane) == [0])
    }

    @Test("a partition with parts in flight blocks its release and keeps its lane when claimed again")
    func revocationWaitsAndKeepsTheLane() {
        var scheduler = LaneScheduler(lanes: 2, maximumRecordsInFlight: 100)
        let topic = (0..<4).map { partition(Int32($0)) }
        _ = scheduler.claimed(topic, among: Set(topic))
        #expect(scheduler.lane(of: topic[3]) == 1)
        let busy = parts(scheduler.take([record(topic[3], 0)], at: start))

        #expect(scheduler.release([topic[2], topic[3]]) == .waitForWrites)
        #expect(scheduler.release([topic[0], topic[2]]) == .forgetClaims)
        // Claimed again alone while its part is in flight: it stays on lane 1, and so do its records.
        #expect(scheduler.claimed([topic[3]], among: [topic[3]]) == [:])
        #expect(scheduler.lane(of: topic[3]) == 1)
        let later = parts(scheduler.take([record(topic[3], 1)], at: start + .seconds(1)))
        #expect(later.map(\.lane) == [1])

        _ = scheduler.written(busy.map(\.receipt))
        #expect(scheduler.release([topic[3]]) == .waitForWrites)
        _ = scheduler.written(later.map(\.receipt))
        #expect(scheduler.release([topic[3]]) == .forgetClaims)
        // Nothing in flight: claimed alone, it moves to the lighter lane.
        #expect(scheduler.claimed([topic[3]], among: [topic[3]]) == [topic[3]: 0])
        #expect(scheduler.lane(of: topic[3]) == 0)
    }

    @Test("without claims the number chooses the lane; one lane takes everything and assigns nothing")
    func laneByNumber() {
        let two = LaneScheduler(lanes: 2, maximumRecordsInFlight: 100)
        let file = (0..<16).map { PartitionKey(topic: "import:a.json", partition: Int32($0)) }
        #expect(file.map { two.lane(of: $0) } == (0..<16).map { $0 % 2 })
        #expect(two.lane(of: PartitionKey(topic: "import:a.json", partition: -1)) == 1)

        var one = LaneScheduler(lanes: 1, maximumRecordsInFlight: 100)
        #expect(one.claimed(file, among: Set(file)) == [:])
        #expect(one.laneAssignments.isEmpty)
        #expect(file.allSatisfy { one.lane(of: $0) == 0 })
        #expect(parts(one.take(file.map { record($0, 0) }, at: start)).map(\.lane) == [0])
    }

    @Test("stopping forgets what is in flight and the waiting pump, and keeps the lanes and batch numbers")
    func stopping() {
        var scheduler = LaneScheduler(lanes: 2, maximumRecordsInFlight: 3)
        let topic = [partition(0), partition(1)]
        _ = scheduler.claimed(topic, among: Set(topic))
        _ = scheduler.take([record(topic[0], 0), record(topic[1], 0), record(topic[1], 1)], at: start)
        #expect(scheduler.pull() == .waitForWrite)
        scheduler.stopped()
        #expect(scheduler.unwritten.isEmpty)
        #expect(scheduler.recordsInFlight == 0)
        #expect(scheduler.partsInFlight.isEmpty)
        #expect(!scheduler.pumpWaits)
        #expect(scheduler.laneAssignments == [topic[0]: 0, topic[1]: 1])
        #expect(scheduler.nextBatch == 1)
        #expect(scheduler.release(topic) == .forgetClaims)
        #expect(scheduler.pull() == .pull(maximumRecords: 3))
    }
}
