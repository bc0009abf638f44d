import Primitives

/// Forecast accuracy per day type (`switchboard staffing backtest`): each past day forecast from
/// the history before it, against what was offered, beside two naive baselines: the same weekday
/// last week, and the mean of the same weekday over the last 8 weeks, which ignores day types.
///
/// The error is the WAPE of offered contacts per queue and 15-minute slot:
/// Σ |forecast − actual| / Σ actual, over every queue × slot of the days of a type.
public struct StaffingBacktest: Sendable {
    /// One day type's figures.
    public struct Line: Sendable, Equatable {
        /// The day type label (`holiday`, `weekday+holiday` for a queue whose stores differ).
        public var dayTypes: String
        /// Queue-days counted.
        public var queueDays: Int
        /// Σ actual offered contacts.
        public var actual: Double
        public var forecastError: Double
        public var lastWeekError: Double
        public var eightWeekError: Double

        /// WAPE of the forecast, of the same weekday last week, of the 8-week same-weekday mean.
        public var wape: (forecast: Double?, lastWeek: Double?, eightWeeks: Double?) {
            guard actual > 0 else { return (nil, nil, nil) }
            return (forecastError / actual, lastWeekError / actual, eightWeekError / actual)
        }
    }

    /// Per day type label.
    public private(set) var lines: [String: Line] = [:]

    public init() {}

    /// The weeks before a day whose same weekday the 8-week mean averages.
    public static let meanWeeks = 8

    /// Adds one day: its forecast, against the contacts offered that day and on the same
    /// weekday 1...8 weeks before (a week without any counts as empty).
    public mutating func add(forecast: [StaffingForecast.Interval], on date: CivilDate, actual history: OfferedHistory)
    {
        let actual = history.day(date)
        let weeks = (1...Self.meanWeeks).map { history.day(date.adding(days: -7 * $0)) }
        var byQueue: [String: [StaffingForecast.Interval]] = [:]
        for interval in forecast { byQueue[interval.queue, default: []].append(interval) }
        for (queue, intervals) in byQueue {
            guard let label = intervals.first?.dayTypesLabel else { continue }
            var predicted: [OfferedHistory.QueueSlot: Double] = [:]
            for interval in intervals {
                predicted[OfferedHistory.QueueSlot(queue: queue, slot: interval.slot)] = interval.offered
            }
            let keys = Set(predicted.keys).union(actual.keys.filter { $0.queue == queue })
            var line =
                lines[label]
                ?? Line(
                    dayTypes: label, queueDays: 0, actual: 0, forecastError: 0, lastWeekError: 0, eightWeekError: 0)
            line.queueDays += 1
            for key in keys {
                let a = actual[key] ?? 0
                line.actual += a
                line.forecastError += abs((predicted[key] ?? 0) - a)
                line.lastWeekError += abs((weeks[0][key] ?? 0) - a)
                let mean = weeks.reduce(0) { $0 + ($1[key] ?? 0) } / Double(weeks.count)
                line.eightWeekError += abs(mean - a)
            }
            lines[label] = line
        }
    }

    /// The table, one line per day type.
    public var table: String {
        var out =
            "day type                  queue-days   contacts   WAPE forecast   same weekday last week   8-week mean\n"
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + fill : fill + text
        }
        func percent(_ value: Double?) -> String {
            value.map { ErlangCalculation.format($0 * 100, digits: 1) + " %" } ?? "-"
        }
        for label in lines.keys.sorted() {
            let line = lines[label]!
            let wape = line.wape
            out += pad(label, 24, left: true) + pad("\(line.queueDays)", 12)
            out += pad(ErlangCalculation.format(line.actual, digits: 0), 11) + pad(percent(wape.forecast), 16)
            out += pad(percent(wape.lastWeek), 25) + pad(percent(wape.eightWeeks), 14) + "\n"
        }
        return out
    }
}
