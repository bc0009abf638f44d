import Synchronization

/// A lane's queue of decoded batches: the pump appends, the lane takes everything queued at once
/// (up to a number of records), so the batches that arrived while it wrote share its next
/// transaction.
final class LaneQueue: Sendable {
    private let state = Mutex((works: [IngestPipeline.LaneWork](), finished: false))
    /// Yields after each ``append(_:)`` and ``finish()``; read by the lane's one task.
    let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() {
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `work` for the lane.
    func append(_ work: IngestPipeline.LaneWork) {
        state.withLock { $0.works.append(work) }
        wake.yield()
    }

    /// No more work will be queued: the lane ends once it took what is queued.
    func finish() {
        state.withLock { $0.finished = true }
        wake.yield()
    }

    /// Takes the queued work, oldest first: the first batch, and the next ones while the records
    /// stay within `maximumRecords` and none covers records of a batch taken before it
    /// (``IngestBatch/isOverlapped(by:)``: merged, the overlap would be written twice; alone,
    /// the later batch is refused). Empty when nothing is queued (wait for ``wakeups``), `nil`
    /// when nothing is queued and nothing will be.
    func take(maximumRecords: Int) -> [IngestPipeline.LaneWork]? {
        state.withLock { state in
            var count = 0
            var records = 0
            var covered: [PartitionKey: Int64] = [:]
            for work in state.works {
                if count > 0, records + work.batch.sourceRecordCount > maximumRecords { break }
                if count > 0, IngestBatch.overlap(of: work.batch, after: covered) { break }
                count += 1
                records += work.batch.sourceRecordCount
                covered.merge(work.batch.nextOffsets, uniquingKeysWith: max)
            }
            if count == 0 { return state.finished ? nil : [] }
            let taken = Array(state.works.prefix(count))
            state.works.removeFirst(count)
            return taken
        }
    }
}
