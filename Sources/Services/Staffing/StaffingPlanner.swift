import ContactCenter
import Primitives
import Synchronization

/// `switchboard staffing plan` (and `GET /v1/staffing`): refreshes the history, forecasts the
/// dates asked for, staffs every slot and stores the plan.
///
/// A planner of ``HistoryUpkeep/readOnly`` (`serve`'s) never refreshes the history: it plans from
/// the history as the last refresh by another process left it.
public struct StaffingPlanner: Sendable {
    /// What a planner does with the history before it reads it.
    public enum HistoryUpkeep: Sendable {
        /// Brings it up to date through yesterday first (``StaffingRecords/refreshHistory(unlessRefreshedWithin:)``,
        /// which writes): `staffing plan`, `staffing backtest`, `dev`.
        case refresh
        /// Reads it as the last refresh (by `staffing plan`, `dev`) left it, and writes nothing: `serve`,
        /// whose database role may only read. With a refresh period the reads kept are still dropped
        /// once per period, so the plans follow another process's refresh within it.
        case readOnly
    }

    /// A plan made.
    public struct Result: Sendable {
        public var plan: StaffingPlan
        public var queueNames: [String: String]
        /// What the plan was asked for.
        public var request: StaffingPlanRequest
        /// The id of the one queue asked for (the request may name it by name).
        public var queueId: String?
    }

    /// A plan skips the history refresh when any process brought the history up to date through
    /// yesterday less than this long ago (`staffing_refresh`): plans asked together refresh once.
    public static let sharedRefreshPeriod: Duration = .seconds(300)

    private let store: any StaffingRecords
    /// When this planner last brought the history up to date; `nil` when every plan does.
    private let refreshes: HistoryRefreshes?
    /// Whether a refresh writes the history or only drops the reads kept.
    private let upkeep: HistoryUpkeep

    /// A planner over `records`. With `refreshEvery`, a plan brings the history up to date only
    /// when the last refresh of this planner is that old: the console's panel asks every few
    /// seconds, and the history (up to yesterday) changes only as late records arrive.
    /// - Parameter upkeep: ``HistoryUpkeep/readOnly`` never calls
    ///   ``StaffingRecords/refreshHistory(unlessRefreshedWithin:)``.
    public init(records: any StaffingRecords, refreshEvery: Duration? = nil, upkeep: HistoryUpkeep = .refresh) {
        store = records
        refreshes = refreshEvery.map(HistoryRefreshes.init(every:))
        self.upkeep = upkeep
    }

    /// What a plan reads besides its request: the queue asked for (by id), the history of the
    /// queues it covers, their baselines and the calendar of its dates.
    struct Reads: Sendable {
        var queueId: String?
        var queues: [String: StaffingQueueHistory]
        var baselines: [StaffingBaselineKey: StaffingBaseline]
        var calendar: StaffingCalendar
    }

    /// The request fields that decide a plan's ``Reads``.
    struct ReadKey: Hashable, Sendable {
        var dates: ClosedRange<CivilDate>
        var queue: String?
    }

    /// A planner's last history refresh, and what plans read since it.
    ///
    /// Between two refreshes the history changes only through another process's refresh, so a
    /// plan asked again (the console's panel, every few seconds) reuses what the last one read:
    /// the panel follows the history and the stores' calendar within one refresh period.
    final class HistoryRefreshes: Sendable {
        let every: Duration
        /// The most request shapes whose reads are kept (the API takes any range).
        static let maximumKept = 16

        private struct State {
            var last: ContinuousClock.Instant?
            /// Whether a claimed refresh has not ended yet: reads made meanwhile may predate it.
            var refreshing = false
            /// Counts claimed refreshes: reads begun before the latest one are not kept.
            var generation = 0
            var reads: [ReadKey: Reads] = [:]
        }

        private let state = Mutex(State())

        init(every: Duration) {
            self.every = every
        }

        /// Whether a refresh is due now; when it is, it counts as done from now on, so that
        /// requests arriving together do not all refresh, and the reads kept are dropped.
        func claim() -> Bool {
            let now = ContinuousClock.now
            return state.withLock { state in
                if let previous = state.last, now - previous < every { return false }
                state.last = now
                state.refreshing = true
                state.generation += 1
                state.reads = [:]
                return true
            }
        }

        /// Drops the reads kept: what they were read from was rewritten.
        func forgetReads() {
            state.withLock { state in
                state.generation += 1
                state.reads = [:]
            }
        }

        /// The claimed refresh ended.
        func refreshed() {
            state.withLock { $0.refreshing = false }
        }

        /// A claimed refresh failed: the next plan tries again.
        func release() {
            state.withLock { state in
                state.last = nil
                state.refreshing = false
            }
        }

        /// The reads kept for `key`, or the generation to pass to ``keep(_:for:generation:)``.
        func reads(for key: ReadKey) -> (reads: Reads?, generation: Int) {
            state.withLock { ($0.reads[key], $0.generation) }
        }

        /// Keeps `reads` for `key` unless a refresh was claimed since they began or is running.
        func keep(_ reads: Reads, for key: ReadKey, generation: Int) {
            state.withLock { state in
                guard state.generation == generation, !state.refreshing else { return }
                if state.reads.count >= Self.maximumKept { state.reads = [:] }
                state.reads[key] = reads
            }
        }
    }

    /// Forecasts and staffs `request`, without storing it.
    /// - Throws: `StaffingRequestError` for an unknown queue; `StaffingError`; the records' errors.
    public func plan(_ request: StaffingPlanRequest) async throws -> Result {
        let prepared = try await prepare(request)
        let plan = try StaffingPlan(
            forecast: prepared.forecast(only: nil), queues: prepared.reads.queues, model: request.model,
            target: request.target, shrinkage: request.shrinkage)
        return Result(plan: plan, queueNames: prepared.names, request: request, queueId: prepared.reads.queueId)
    }

    /// Forecasts, staffs and stores `request` queue by queue: the records store one queue's
    /// intervals while the next queue is forecast and staffed.
    /// - Important: Storing writes, whatever the ``HistoryUpkeep``: a read-only planner's records
    ///   refuse it.
    /// - Returns: the plan and its `plan_id`.
    /// - Parameter rewritten: Awaited once the plan has read: `true` when what it read from
    ///   (the stores' business days) was rewritten meanwhile, and the plan reads again, the
    ///   history refreshed with the new days.
    /// - Throws: `StaffingRequestError` for an unknown queue; `StaffingError`; the records' errors.
    public func planAndSave(
        _ request: StaffingPlanRequest, rereadIf rewritten: () async throws -> Bool = { false }
    ) async throws -> (result: Result, planId: Int) {
        var prepared = try await prepare(request)
        if try await rewritten() { prepared = try await prepare(request, refreshingAnyway: true) }
        let queues = prepared.reads.queues
        let (plan, planId) = try await store.save(
            request, queueId: prepared.reads.queueId, queueNames: prepared.names
        ) { write in
            var plan = try StaffingPlan(model: request.model, target: request.target, shrinkage: request.shrinkage)
            for queue in queues.keys.sorted() {
                // A request whose caller has gone stops between queues.
                try Task.checkCancellation()
                try await write(try plan.staff(prepared.forecast(only: queue), queues: queues))
            }
            return plan
        }
        return (
            Result(plan: plan, queueNames: prepared.names, request: request, queueId: prepared.reads.queueId), planId
        )
    }

    /// One business date's forecast of every queue (or of `queue`, an id or a name), each interval
    /// keeping its stores' parts, with the queues' history and names: what the intraday
    /// reforecast starts from. `names` holds every queue with history, not only those forecast.
    /// - Throws: `StaffingRequestError` for an unknown queue; the records' errors.
    public func dayForecast(
        _ date: CivilDate, queue: String?
    ) async throws -> (
        forecast: StaffingForecast, queues: [String: StaffingQueueHistory], names: [String: String], queueId: String?
    ) {
        async let known = store.knownQueues()
        let request = try StaffingPlanRequest(
            dates: date...date, queue: queue, model: .erlangA, target: try ServiceTarget(parsing: "80/20"),
            shrinkage: 0)
        let prepared = try await prepare(request)
        let reads = prepared.reads
        let forecast = StaffingForecast(
            queues: reads.queues, baselines: reads.baselines, calendar: reads.calendar, only: reads.queueId,
            keepingStores: true)
        var names = prepared.names
        for (id, name) in try await known where names[id] == nil { names[id] = name ?? id }
        return (forecast, reads.queues, names, reads.queueId)
    }

    /// What a plan is made from: its reads and the queues' names.
    private struct Prepared {
        var reads: Reads
        var names: [String: String]

        /// The forecast of every queue read, or of the queue `only`.
        func forecast(only queue: String?) -> StaffingForecast {
            StaffingForecast(
                queues: reads.queues, baselines: reads.baselines, calendar: reads.calendar, only: queue)
        }
    }

    /// Brings the history up to date when due (or `refreshingAnyway`), and reads. A read-only
    /// planner only claims the period, which drops the reads kept.
    private func prepare(_ request: StaffingPlanRequest, refreshingAnyway: Bool = false) async throws -> Prepared {
        if upkeep == .readOnly {
            if refreshes?.claim() == true { refreshes?.refreshed() }
        } else if refreshingAnyway || (refreshes?.claim() ?? true) {
            do {
                try await store.refreshHistory(
                    unlessRefreshedWithin: refreshingAnyway ? .zero : Self.sharedRefreshPeriod)
                refreshes?.refreshed()
            } catch {
                refreshes?.release()
                throw error
            }
        }
        let key = ReadKey(dates: request.dates, queue: request.queue)
        // A read again after a rewrite never comes from, nor goes to, the reads kept before it.
        if refreshingAnyway { refreshes?.forgetReads() }
        let kept = refreshingAnyway ? nil : refreshes?.reads(for: key)
        let reads: Reads
        if let cached = kept?.reads {
            reads = cached
        } else {
            reads = try await read(key)
            if let kept { refreshes?.keep(reads, for: key, generation: kept.generation) }
        }
        var names: [String: String] = [:]
        for (id, history) in reads.queues { names[id] = history.name ?? id }
        return Prepared(reads: reads, names: names)
    }

    /// Reads what a plan of `key` is made from.
    /// - Throws: `StaffingRequestError` for an unknown queue; the records' errors.
    private func read(_ key: ReadKey) async throws -> Reads {
        let known = try await store.knownQueues()
        var queueId: String?
        if let queue = key.queue {
            queueId = known[queue] != nil ? queue : known.first { $0.value == queue }?.key
            guard queueId != nil else {
                throw StaffingRequestError(
                    .queue, .unknownQueue(queue, known: known.map { $0.value ?? $0.key }.sorted()))
            }
        }
        // Three independent reads, each on a connection of its own: PostgreSQL runs them at once.
        let store = self.store
        let id = queueId
        async let queues = store.queues(before: key.dates.lowerBound, queue: id)
        async let baselines = store.baselines(before: key.dates.lowerBound, queue: id)
        async let calendar = store.calendar(key.dates)
        return try await Reads(queueId: id, queues: queues, baselines: baselines, calendar: calendar)
    }
}
