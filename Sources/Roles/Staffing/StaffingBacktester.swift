import ContactCenter
import Logging
import PostgresNIO
import Primitives
import Storage

/// `switchboard staffing backtest`: forecasts each of the last weeks' days from the history before
/// it and compares with what was offered, per day type, beside two naive baselines.
public struct StaffingBacktester: Sendable {
    private let store: StaffingStore

    /// A backtester over `client`.
    public init(client: PostgresClient, logger: Logger) {
        store = StaffingStore(client: client, logger: logger)
    }

    /// The backtest of the `weeks` weeks before `today` (`YYYY-MM-DD`, excluded).
    /// - Throws: `StaffingPlanner.RequestError` for a bad date or week count; PostgreSQL errors.
    public func run(weeks: Int, today: String, queue: String?) async throws -> StaffingBacktest {
        guard (1...104).contains(weeks) else {
            throw StaffingPlanner.RequestError(description: "--weeks must be within 1...104 (got \(weeks))")
        }
        guard let end = StaffingPlanner.dayNumber(today) else {
            throw StaffingPlanner.RequestError(description: "today must be YYYY-MM-DD (got \(today))")
        }
        try await store.refreshHistory()
        let first = end - weeks * 7
        let offered = try await store.offered(from: Self.date(first - 56), to: Self.date(end - 1), queue: queue)
        var backtest = StaffingBacktest()
        for day in first..<end {
            let date = Self.date(day)
            let queues = try await store.queues(before: date, queue: queue)
            let baselines = try await store.baselines(before: date, queue: queue)
            let calendar = try await store.calendar(from: date, to: date)
            let forecast = StaffingForecast(
                queues: queues, baselines: baselines, dates: calendar.dates, dayTypes: calendar.dayTypes,
                weekendDates: calendar.weekend)
            let history = (0...8).map { offered[Self.date(day - 7 * $0)] ?? [:] }
            backtest.add(forecast: forecast.slots, history: history)
        }
        return backtest
    }

    /// `YYYY-MM-DD` of a day number.
    static func date(_ day: Int) -> String {
        let (y, m, d) = CivilDays.civil(dayNumber: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }
}
