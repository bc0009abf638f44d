import Foundation
import Primitives

/// The intraday reforecast's accuracy (`switchboard staffing backtest --intraday`): past days
/// replayed to an instant, their rest reforecast from the day so far, scored against what was
/// offered beside the morning's forecast and a simulator's expected counts (the oracle).
///
/// Over the slots from the instant to the end of the business day, per line:
/// WAPE = Σ |forecast − offered| / Σ offered for the morning forecast and the reforecast, and the
/// oracle's Σ E|N − λ| / Σ λ. On shock days the line's **recovery** is the share of the
/// recoverable error the reforecast removed, (morning − reforecast) / (morning − oracle); on
/// other days the **change** is reforecast ÷ morning (below 1: the reforecast helps).
public struct IntradayBacktest: Sendable {
    /// One line: a kind of day at an instant (`shock+1h`, `normal@12:00`).
    public struct Line: Sendable, Equatable {
        public var label: String
        /// Queue-days scored.
        public var queueDays = 0
        /// Σ offered over the scored slots.
        public var actual = 0.0
        public var morningError = 0.0
        public var reforecastError = 0.0
        /// Σ E|N − λ| and Σ λ over the scored slots the oracle covers.
        public var oracleError = 0.0
        public var oracleExpected = 0.0

        public init(label: String) { self.label = label }

        public var morningWAPE: Double? { actual > 0 ? morningError / actual : nil }
        public var reforecastWAPE: Double? { actual > 0 ? reforecastError / actual : nil }
        public var oracleWAPE: Double? { oracleExpected > 0 ? oracleError / oracleExpected : nil }

        /// (morning − reforecast) / (morning − oracle), WAPEs; nil without an oracle or when the
        /// morning is already at the floor.
        public var recovery: Double? {
            guard let m = morningWAPE, let r = reforecastWAPE, let o = oracleWAPE, m - o > 1e-9 else { return nil }
            return (m - r) / (m - o)
        }

        /// Reforecast WAPE ÷ morning WAPE.
        public var change: Double? {
            guard let m = morningWAPE, let r = reforecastWAPE, m > 0 else { return nil }
            return r / m
        }

        mutating func merge(_ other: Line) {
            queueDays += other.queueDays
            actual += other.actual
            morningError += other.morningError
            reforecastError += other.reforecastError
            oracleError += other.oracleError
            oracleExpected += other.oracleExpected
        }
    }

    /// The parameters scored.
    public let parameters: IntradayParameters
    /// Lines by label, in the order first added.
    public private(set) var lines: [Line] = []

    public init(parameters: IntradayParameters) {
        self.parameters = parameters
    }

    /// The label of shock days `hours` after the shock began.
    public static func shockLabel(hours: Int) -> String { "shock+\(hours)h" }
    /// What a ceiling line's label adds: the morning's forecast with the shock's true factor.
    public static let knownLevelSuffix = " known"
    /// The label of days without a shock at `minute`.
    public static func normalLabel(minute: Int) -> String { "normal@\(IntradayOutlook.clock(Double(minute)))" }

    /// Scores one queue-day replayed to `minute` (a slot's start): its slots before the
    /// instant are known, the rest reforecast.
    /// - Parameters:
    ///   - plan: The morning's forecast of the day (per slot, with its stores' parts).
    ///   - actual: What the whole day offered.
    ///   - oracle: λ per slot, when known.
    ///   - known: Instead of the reforecast, this forecast of the rest (the ceiling's lines).
    public mutating func add(
        _ label: String, queue: String, plan: [DaySlot: IntradayReforecast.PlanSlot],
        actual: [DaySlot: IntradayReforecast.ActualSlot], oracle: [DaySlot: Double]?, minute: Int,
        known: [DaySlot: IntradayReforecast.PlanSlot]? = nil
    ) throws(StaffingError) {
        let first = minute / DaySlot.minutes
        let sofar = actual.filter { $0.key.index < first }
        let reforecast = try IntradayReforecast(
            queue: queue, plan: plan, actual: sofar, minute: Double(minute), staffed: { _ in nil }, staffing: nil,
            parameters: parameters)
        var line = Line(label: label)
        line.queueDays = 1
        var predicted: [DaySlot: Double] = [:]
        for slot in reforecast.slots where slot.slot.index >= first { predicted[slot.slot] = slot.reforecastOffered }
        if let known { predicted = known.mapValues(\.offered) }
        var slots = Set(plan.keys).union(actual.keys).filter { $0.index >= first }
        if let oracle { slots.formUnion(oracle.keys.filter { $0.index >= first }) }
        for slot in slots {
            let n = actual[slot]?.offered ?? 0
            line.actual += n
            line.morningError += abs((plan[slot]?.offered ?? 0) - n)
            line.reforecastError += abs((predicted[slot] ?? 0) - n)
            if let lambda = oracle?[slot] {
                line.oracleError += StaffingOracle.meanAbsoluteDeviation(lambda)
                line.oracleExpected += lambda
            }
        }
        if let index = lines.firstIndex(where: { $0.label == label }) {
            lines[index].merge(line)
        } else {
            lines.append(line)
        }
    }

    /// Every line whose label starts with `prefix`, summed.
    public func total(_ prefix: String) -> Line {
        var sum = Line(label: prefix)
        for line in lines where line.label.hasPrefix(prefix) && !line.label.hasSuffix(Self.knownLevelSuffix) {
            sum.merge(line)
        }
        return sum
    }

    /// The CSV header and one line per label.
    public var csv: String {
        var out = "label,queue_days,actual,wape_morning,wape_reforecast,wape_oracle,recovery,change\n"
        func f(_ value: Double?) -> String { value.map { ErlangCalculation.format($0, digits: 4) } ?? "" }
        for line in lines {
            out += "\(line.label),\(line.queueDays),\(ErlangCalculation.format(line.actual, digits: 0)),"
            out += "\(f(line.morningWAPE)),\(f(line.reforecastWAPE)),\(f(line.oracleWAPE)),"
            out += "\(f(line.recovery)),\(f(line.change))\n"
        }
        return out
    }

    /// A table for a terminal.
    public var table: String {
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func percent(_ value: Double?) -> String { value.map { ErlangCalculation.percent($0) } ?? "-" }
        func ratio(_ value: Double?) -> String { value.map { ErlangCalculation.format($0, digits: 2) } ?? "-" }
        var out = "intraday reforecast: k = \(ErlangCalculation.format(parameters.volumePriorContacts, digits: 1))"
        out +=
            ", half-life \(parameters.halfLifeMinutes.map { ErlangCalculation.format($0, digits: 0) + " min" } ?? "none")"
        out += ", AHT k = \(ErlangCalculation.format(parameters.handleTimePriorContacts, digits: 0))\n"
        out += "  when            queue-days  offered  morning  reforecast  oracle  recovery  change\n"
        for line in lines {
            out += "  " + line.label.padding(toLength: 14, withPad: " ", startingAt: 0)
            out += pad("\(line.queueDays)", 12) + pad(ErlangCalculation.format(line.actual, digits: 0), 9)
            out += pad(percent(line.morningWAPE), 9) + pad(percent(line.reforecastWAPE), 12)
            out += pad(percent(line.oracleWAPE), 8) + pad(ratio(line.recovery), 10) + pad(ratio(line.change), 8)
            out += "\n"
        }
        return out
    }
}
