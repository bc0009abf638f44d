import ContactCenter
import Primitives

/// What the intraday reforecast reads besides the planner's history (implemented in Roles over
/// PostgreSQL's `StaffingStore`).
public protocol IntradayRecords: Sendable {
    /// Contacts per queue, slot and store of business day `date` that entered their queue before
    /// `instant` (seconds since 1970; nil: every one so far).
    func intradayActuals(
        on date: CivilDate, before instant: Double?, queue: String?
    ) async throws -> [String: [DaySlot: IntradayReforecast.ActualSlot]]

    /// The history's contacts per date, queue, slot and store over `dates` (whole days).
    func historyActuals(
        _ dates: ClosedRange<CivilDate>, queue: String?
    ) async throws -> [CivilDate: [String: [DaySlot: IntradayReforecast.ActualSlot]]]

    /// The latest plan stored for `date` covering `queue`: its id and per queue its slots.
    func storedPlan(
        on date: CivilDate, queue: String?
    ) async throws -> (planId: Int, queues: [String: [DaySlot: IntradayReforecast.PlanSlot]])?

    /// The business date in progress at `instant` and its midnight (seconds since 1970).
    func businessDay(at instant: Double) async throws -> (date: CivilDate, midnight: Double)

    /// The midnight of `date`, seconds since 1970.
    func midnight(of date: CivilDate) async throws -> Double
}

/// `switchboard staffing intraday`, `GET /v1/staffing/intraday`: a business day's plan, its
/// contacts so far and the reforecast of its rest, per queue.
public struct IntradayPlanner: Sendable {
    private let planner: StaffingPlanner
    private let records: any IntradayRecords

    public init(planner: StaffingPlanner, records: any IntradayRecords) {
        self.planner = planner
        self.records = records
    }

    /// The outlook `request` asks for.
    /// - Parameters:
    ///   - now: The clock, seconds since 1970 (the instant when the request names none).
    ///   - live: Given the offered load per queue of the current slot (Erlangs), the floor's
    ///     figures; only asked for a reforecast of now.
    /// - Throws: `StaffingRequestError` for an unknown queue; `IntradayChangeError` for a change
    ///   naming an unknown queue or an `add` without a queue; the records' errors.
    public func outlook(
        _ request: IntradayRequest, now: Double,
        live: (@Sendable ([String: Double]) async -> IntradayLive?)? = nil
    ) async throws -> IntradayOutlook {
        var instant = request.instant ?? now
        let date: CivilDate
        let midnight: Double
        if let asked = request.date {
            date = asked
            midnight = try await records.midnight(of: asked)
        } else {
            (date, midnight) = try await records.businessDay(at: instant)
        }
        if let clock = request.clockMinute { instant = midnight + Double(clock) * 60 }
        let replay = request.instant != nil || request.clockMinute != nil
        let minute = (instant - midnight) / 60
        let day = try await planner.dayForecast(date, queue: request.queue)
        let queueId = day.queueId
        let stored = try await records.storedPlan(on: date, queue: queueId)
        let actuals = try await records.intradayActuals(
            on: date, before: replay ? instant : nil, queue: queueId)

        func resolve(_ label: String) -> String {
            if day.names[label] != nil { return label }
            return day.names.first { $0.value == label }?.key ?? label
        }
        for change in request.changes {
            switch change.kind {
            case .add:
                guard request.queue != nil else {
                    throw IntradayChangeError(text: change.description, problem: "adding agents needs a queue")
                }
            case .move(let from, let to):
                for label in [from, to] where day.names[resolve(label)] == nil {
                    throw IntradayChangeError(
                        text: change.description,
                        problem:
                            "unknown queue \(label): queues are \(day.names.values.sorted().joined(separator: ", "))"
                    )
                }
            }
        }

        // The plan per queue: the stored one's figures, each slot shared among its stores as
        // today's forecast shares it; or the forecast staffed now.
        var plans: [String: [DaySlot: IntradayReforecast.PlanSlot]] = [:]
        var forecastByStore: [String: [DaySlot: [String: Double]]] = [:]
        for interval in day.forecast.intervals {
            forecastByStore[interval.queue, default: [:]][interval.slot] = interval.offeredByStore
        }
        if let stored {
            for (queue, slots) in stored.queues where queueId == nil || queue == queueId {
                for (slot, var planSlot) in slots {
                    planSlot.offeredByStore = forecastByStore[queue]?[slot] ?? [:]
                    plans[queue, default: [:]][slot] = planSlot
                }
            }
        } else {
            let plan = try StaffingPlan(
                forecast: day.forecast, queues: day.queues, model: request.model, target: request.target,
                shrinkage: 0)
            for row in plan.rows {
                let f = row.forecast
                plans[f.queue, default: [:]][f.slot] = IntradayReforecast.PlanSlot(
                    offered: f.offered, averageHandleTimeSeconds: f.averageHandleTimeSeconds,
                    agents: row.requirement?.agents, offeredByStore: f.offeredByStore)
            }
        }

        let current = DaySlot(Int((minute / Double(DaySlot.minutes)).rounded(.down)))
        var floor: IntradayLive?
        if !replay, let live {
            var loads: [String: Double] = [:]
            for (queue, slots) in plans {
                if let p = slots[current], let aht = p.averageHandleTimeSeconds {
                    loads[queue] = p.offered * aht / Double(DaySlot.minutes * 60)
                }
            }
            floor = await live(loads)
        }

        // Every queue the center has, with an empty plan where the history before the date has
        // none (a store closed on the days it covers) and no contact yet.
        var names = day.names
        var queues: [IntradayReforecast] = []
        let listed = Set(plans.keys).union(actuals.keys).union(day.names.keys)
        for queue in listed.sorted() where queueId == nil || queue == queueId {
            try Task.checkCancellation()
            if names[queue] == nil { names[queue] = queue }
            let plan = plans[queue] ?? [:]
            var changes: [DaySlot: Double] = [:]
            if !request.changes.isEmpty {
                var slots = Set(plan.keys)
                if let seen = actuals[queue] { slots.formUnion(seen.keys) }
                for slot in slots {
                    let delta = request.changes.reduce(0.0) {
                        $0 + $1.delta(queue: queue, slot: slot, asked: request.queue, resolve: resolve)
                    }
                    if delta != 0 { changes[slot] = delta }
                }
            }
            let staffedNow = floor?.staffed[queue]
            queues.append(
                try IntradayReforecast(
                    queue: queue, plan: plan, actual: actuals[queue] ?? [:],
                    inProgress: floor?.inProgress[queue] ?? 0, minute: minute,
                    staffed: { slot in
                        if floor != nil { return slot >= current ? (staffedNow ?? 0) : nil }
                        return plan[slot]?.agents.map(Double.init)
                    },
                    changes: changes,
                    staffing: IntradayReforecast.Staffing(
                        model: request.model, target: request.target,
                        patienceSeconds: day.queues[queue]?.patienceSeconds),
                    parameters: request.parameters))
        }
        return IntradayOutlook(
            date: date, instant: instant, minute: minute,
            planSource: stored.map { .stored(planId: $0.planId) } ?? .history,
            staffedSource: floor != nil ? .floor : .plan, target: request.target, parameters: request.parameters,
            changes: request.changes, queues: queues, queueNames: names, notes: day.forecast.notes)
    }
}
