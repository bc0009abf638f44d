import ContactCenter
import Primitives

/// `switchboard staffing backtest`: forecasts each of the last weeks' days from the history before
/// it and compares with what was offered, per day type, beside two naive baselines.
public struct StaffingBacktester: Sendable {
    private let store: any StaffingRecords

    /// A backtester over `records`.
    public init(records: any StaffingRecords) {
        store = records
    }

    /// The backtest `request` asks for.
    /// - Throws: the records' errors.
    /// - Parameter oracle: A simulator's expected counts, scored beside the forecast.
    public func run(_ request: StaffingBacktestRequest, oracle: StaffingOracle? = nil) async throws -> StaffingBacktest
    {
        try await store.refreshHistory(unlessRefreshedWithin: .zero)
        let days = request.days
        guard let first = days.first, let last = days.last else { return StaffingBacktest() }
        let offered = try await store.offered(
            first.adding(days: -7 * StaffingBacktest.meanWeeks)...last, queue: request.queue)
        var backtest = StaffingBacktest()
        for date in days {
            let queues = try await store.queues(before: date, queue: request.queue)
            let baselines = try await store.baselines(before: date, queue: request.queue)
            let calendar = try await store.calendar(date...date)
            let forecast = StaffingForecast(queues: queues, baselines: baselines, calendar: calendar)
            backtest.add(forecast: forecast.intervals, on: date, actual: offered, oracle: oracle, notes: forecast.notes)
        }
        return backtest
    }
}
