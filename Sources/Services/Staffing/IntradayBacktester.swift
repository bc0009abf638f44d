import ContactCenter
import Primitives

/// `switchboard staffing backtest --intraday`: each of the last weeks' days replayed to a few
/// instants and its rest reforecast (``IntradayBacktest``): shocked queue-days 1 and 3 hours
/// after their shock began, the others at 12:00, 15:00 and 18:00.
public struct IntradayBacktester: Sendable {
    private let store: any StaffingRecords
    private let intraday: any IntradayRecords

    public init(records: any StaffingRecords, intraday: any IntradayRecords) {
        store = records
        self.intraday = intraday
    }

    /// Hours after a shock's start a reforecast is scored at.
    public static let shockHours = [1, 3]
    /// Minutes after midnight days without a shock are scored at.
    public static let normalMinutes = [12 * 60, 15 * 60, 18 * 60]

    /// One backtest per parameter set, over the same days and reads.
    /// - Parameters:
    ///   - oracle: The simulator's expected counts and shocked queue-days.
    ///   - shocks: The simulator's shocks: when each began.
    /// - Throws: the records' errors; `StaffingError`.
    public func run(
        _ request: StaffingBacktestRequest, oracle: StaffingOracle?, shocks: TrafficShocks?,
        parameters: [IntradayParameters]
    ) async throws -> [IntradayBacktest] {
        try await store.refreshHistory(unlessRefreshedWithin: .zero)
        var results = parameters.map(IntradayBacktest.init(parameters:))
        let days = request.days
        guard let first = days.first, let last = days.last else { return results }
        let actuals = try await intraday.historyActuals(first...last, queue: request.queue)
        for date in days {
            let queues = try await store.queues(before: date, queue: request.queue)
            let baselines = try await store.baselines(before: date, queue: request.queue)
            let calendar = try await store.calendar(date...date)
            let forecast = StaffingForecast(
                queues: queues, baselines: baselines, calendar: calendar, keepingStores: true)
            var plans: [String: [DaySlot: IntradayReforecast.PlanSlot]] = [:]
            for f in forecast.intervals {
                plans[f.queue, default: [:]][f.slot] = IntradayReforecast.PlanSlot(
                    offered: f.offered, averageHandleTimeSeconds: f.averageHandleTimeSeconds, agents: nil,
                    offeredByStore: f.offeredByStore)
            }
            let expected = oracle?.dates.contains(date) == true ? oracle?.expected.day(date) : nil
            for (queue, plan) in plans {
                let actual = actuals[date]?[queue] ?? [:]
                var lambda: [DaySlot: Double]?
                if let expected {
                    lambda = [:]
                    for (key, value) in expected where key.queue == queue { lambda?[key.slot] = value }
                }
                let shockStart = shocks.flatMap { shocks in
                    (queues[queue]?.stores ?? []).compactMap { shocks.shock(store: $0, on: date)?.fromMinute }.min()
                }
                let shocked = oracle.map { $0.isShocked(queue: queue, on: date) } ?? (shockStart != nil)
                var instants: [(String, Int)] = []
                if shocked {
                    guard let start = shockStart else { continue }
                    instants = Self.shockHours.map { (IntradayBacktest.shockLabel(hours: $0), start + 60 * $0) }
                } else {
                    instants = Self.normalMinutes.map { (IntradayBacktest.normalLabel(minute: $0), $0) }
                }
                // The ceiling of any level update: the morning's forecast with each shocked store's
                // part scaled by its true factor from the shock's start (simulator knowledge).
                var known = plan
                if let shocks, shocked {
                    for (slot, var p) in plan {
                        var total = 0.0
                        for (store, part) in p.offeredByStore {
                            var value = part
                            if let kind = shocks.shock(store: store, on: date),
                                slot.index * DaySlot.minutes >= kind.fromMinute
                            {
                                value *= kind.factor
                            }
                            p.offeredByStore[store] = value
                            total += value
                        }
                        let sum = plan[slot]!.offeredByStore.values.reduce(0, +)
                        if sum > 0 { p.offered = plan[slot]!.offered * total / sum }
                        known[slot] = p
                    }
                }
                for index in results.indices {
                    for (label, minute) in instants {
                        try results[index].add(
                            label, queue: queue, plan: plan, actual: actual, oracle: lambda, minute: minute)
                        if shocked, shocks != nil {
                            try results[index].add(
                                label + IntradayBacktest.knownLevelSuffix, queue: queue, plan: plan, actual: actual,
                                oracle: lambda, minute: minute, known: known)
                        }
                    }
                }
            }
        }
        return results
    }
}
