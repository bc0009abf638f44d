import Primitives

/// Forecast accuracy per day type (`switchboard staffing backtest`): each past day forecast from
/// the history before it, against what was offered, beside two naive baselines: the same weekday
/// last week, and the mean of the same weekday over the last 8 weeks, which ignores day types.
///
/// The error is the WAPE of offered contacts per queue and 15-minute slot:
/// Σ |forecast − actual| / Σ actual, over every queue × slot of the days of a type.
///
/// With a ``StaffingOracle`` (a simulator's expected counts), each line also gives the oracle's
/// WAPE, Σ E|N − λ| / Σ λ over the same queue × slots: the Poisson floor no forecast goes below
/// on average. Queue-days the oracle marks as shocked are counted on their own line (`shock`),
/// not in their day type's: an ordinary day's forecast is scored on ordinary days.
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
        /// Σ E|N − λ| and Σ λ over the queue-days the oracle covers.
        public var oracleError: Double = 0
        public var oracleExpected: Double = 0

        /// WAPE of the forecast, of the same weekday last week, of the 8-week same-weekday mean.
        public var wape: (forecast: Double?, lastWeek: Double?, eightWeeks: Double?) {
            guard actual > 0 else { return (nil, nil, nil) }
            return (forecastError / actual, lastWeekError / actual, eightWeekError / actual)
        }

        /// The oracle's WAPE, Σ E|N − λ| / Σ λ; nil without an oracle.
        public var oracleWAPE: Double? {
            oracleExpected > 0 ? oracleError / oracleExpected : nil
        }
    }

    /// The label of shocked queue-days' line.
    public static let shockLabel = "shock"

    /// Per day type label.
    public private(set) var lines: [String: Line] = [:]
    /// The forecasts' notes (fallbacks and gaps), each once, in the order first seen.
    public private(set) var notes: [String] = []

    public init() {}

    /// The weeks before a day whose same weekday the 8-week mean averages.
    public static let meanWeeks = 8

    /// Adds one day: its forecast, against the contacts offered that day and on the same
    /// weekday 1...8 weeks before (a week without any counts as empty), and the oracle's λ.
    public mutating func add(
        forecast: [StaffingForecast.Interval], on date: CivilDate, actual history: OfferedHistory,
        oracle: StaffingOracle? = nil, notes forecastNotes: [String] = []
    ) {
        for note in forecastNotes where !notes.contains(note) { notes.append(note) }
        let actual = history.day(date)
        let expected = oracle?.dates.contains(date) == true ? oracle?.expected.day(date) : nil
        let weeks = (1...Self.meanWeeks).map { history.day(date.adding(days: -7 * $0)) }
        var byQueue: [String: [StaffingForecast.Interval]] = [:]
        for interval in forecast { byQueue[interval.queue, default: []].append(interval) }
        for (queue, intervals) in byQueue {
            guard var label = intervals.first?.dayTypesLabel else { continue }
            if oracle?.isShocked(queue: queue, on: date) == true { label = Self.shockLabel }
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
            if let expected {
                for (key, lambda) in expected where key.queue == queue {
                    line.oracleError += StaffingOracle.meanAbsoluteDeviation(lambda)
                    line.oracleExpected += lambda
                }
            }
            lines[label] = line
        }
    }

    /// The table, one line per day type, then the notes.
    public var table: String {
        var out =
            "day type                  queue-days   contacts   WAPE forecast   same weekday last week   8-week mean"
            + "   oracle (Poisson floor)\n"
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
            out += pad(percent(wape.lastWeek), 25) + pad(percent(wape.eightWeeks), 14)
            out += pad(percent(line.oracleWAPE), 25) + "\n"
        }
        for note in notes { out += "note: \(note)\n" }
        return out
    }

    /// The lines as CSV, WAPEs as fractions (empty where unknown):
    /// `day_types,queue_days,contacts,wape_forecast,wape_last_week,wape_8_week_mean,wape_oracle`.
    public var csv: String {
        var out = "day_types,queue_days,contacts,wape_forecast,wape_last_week,wape_8_week_mean,wape_oracle\n"
        func field(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
        for label in lines.keys.sorted() {
            let line = lines[label]!
            let wape = line.wape
            out += "\(label),\(line.queueDays),\(Int(line.actual.rounded())),\(field(wape.forecast)),"
            out += "\(field(wape.lastWeek)),\(field(wape.eightWeeks)),\(field(line.oracleWAPE))\n"
        }
        return out
    }
}
