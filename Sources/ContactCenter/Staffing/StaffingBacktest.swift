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

    /// Adds one day: its forecast, and the offered contacts per queue and slot on that day
    /// (`history[0]`) and on the same weekday 1…8 weeks before (`history[1…8]`; missing weeks
    /// are empty).
    public mutating func add(forecast: [StaffingForecast.Slot], history: [[String: [Int: Double]]]) {
        let actual = history.first ?? [:]
        var byQueue: [String: [StaffingForecast.Slot]] = [:]
        for slot in forecast { byQueue[slot.queue, default: []].append(slot) }
        for (queue, slots) in byQueue {
            guard let label = slots.first?.dayTypes else { continue }
            var predicted: [Int: Double] = [:]
            for slot in slots { predicted[slot.slot] = slot.offered }
            let happened = actual[queue] ?? [:]
            let keys = Set(predicted.keys).union(happened.keys)
            var line =
                lines[label]
                ?? Line(
                    dayTypes: label, queueDays: 0, actual: 0, forecastError: 0, lastWeekError: 0, eightWeekError: 0)
            line.queueDays += 1
            let weeks = history.dropFirst().prefix(8)
            for key in keys {
                let a = happened[key] ?? 0
                line.actual += a
                line.forecastError += abs((predicted[key] ?? 0) - a)
                let lastWeek = weeks.first?[queue]?[key] ?? 0
                line.lastWeekError += abs(lastWeek - a)
                let mean = weeks.isEmpty ? 0 : weeks.reduce(0) { $0 + ($1[queue]?[key] ?? 0) } / Double(weeks.count)
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
