import Foundation
import Primitives
import Testing

@testable import ContactCenter

/// The oracle's arithmetic: the Poisson mean absolute deviation worked out by hand and from its
/// definition, its CSV, and the backtest's oracle column on a case worked out by hand.
@Suite("Staffing oracle: the Poisson floor")
struct StaffingOracleTests {
    /// E|N − λ| by its definition, Σ_n |n − λ| P(N = n), P computed term by term: an independent
    /// route to the closed form the product uses.
    static func byDefinition(_ lambda: Double) -> Double {
        var probability = exp(-lambda)
        var sum = 0.0
        for n in 0..<400 {
            sum += abs(Double(n) - lambda) * probability
            probability *= lambda / Double(n + 1)
        }
        return sum
    }

    @Test("E|N − λ| by hand: 2 e^(−λ) λ^(⌊λ⌋+1) / ⌊λ⌋!")
    func byHand() {
        // λ = 1: 2 e^-1 · 1 / 1 = 0.735759;  λ = 0.5: 2 e^-0.5 · 0.5 / 0! = e^-0.5 = 0.606531;
        // λ = 2.5: 2 e^-2.5 · 2.5^3 / 2! = e^-2.5 · 15.625 = 1.282578;  λ = 5: 2 e^-5 · 5^6 / 5! = 1.754674.
        let cases: [(Double, Double)] = [(1, 0.735759), (0.5, 0.606531), (2.5, 1.282578), (5, 1.754674), (0, 0)]
        for (lambda, expected) in cases {
            #expect(abs(StaffingOracle.meanAbsoluteDeviation(lambda) - expected) < 1e-6, "λ = \(lambda)")
        }
        for lambda in stride(from: 0.05, through: 60, by: 0.37) {
            #expect(
                abs(StaffingOracle.meanAbsoluteDeviation(lambda) - Self.byDefinition(lambda)) < 1e-9, "λ = \(lambda)")
        }
        #expect(StaffingOracle.meanAbsoluteDeviation(1e6).isFinite)
    }

    @Test("the CSV round-trips, shocked empty queue-days included; a bad line names its number")
    func csv() throws {
        var oracle = StaffingOracle()
        let day = CivilDate(year: 2026, month: 11, day: 3)!
        oracle.dates = [day, day.adding(days: 1)]
        oracle.expected.add(1.25, queue: "arn:q,1", slot: DaySlot(40), on: day)
        oracle.expected.add(0.5, queue: "arn:r", slot: DaySlot(97), on: day)
        oracle.shocked["arn:r"] = [day]
        oracle.shocked["arn:quiet"] = [day.adding(days: 1)]
        let read = try StaffingOracle(csv: oracle.csv)
        #expect(read == oracle)
        #expect(oracle.csv.contains("\"arn:q,1\",2026-11-03,40,1.25,0"))
        #expect(throws: StaffingOracle.ParseError.self) { try StaffingOracle(csv: "queue,date\n") }
        do {
            _ = try StaffingOracle(csv: StaffingOracle.csvHeader + "\nq,2026-11-03,40,1,0\nq,2026-13-01,40,1,0\n")
            Issue.record("a bad date was read")
        } catch {
            #expect(error.line == 3)
        }
    }

    @Test("the backtest's oracle column: Σ E|N − λ| / Σ λ; shocked queue-days on their own line; notes once")
    func backtest() {
        let date = CivilDate(year: 2026, month: 11, day: 4)!
        let forecast = [40, 41].map {
            StaffingForecast.Interval(
                queue: "q", date: date, slot: DaySlot($0), dayTypes: [.weekday], offered: $0 == 40 ? 1.5 : 0.5,
                averageHandleTimeSeconds: 100)
        }
        var history = OfferedHistory()
        history.add(2, queue: "q", slot: DaySlot(40), on: date)
        var oracle = StaffingOracle()
        oracle.dates = [date, date.adding(days: 1)]
        oracle.expected.add(1, queue: "q", slot: DaySlot(40), on: date)
        oracle.expected.add(0.5, queue: "q", slot: DaySlot(41), on: date)
        var backtest = StaffingBacktest()
        backtest.add(forecast: forecast, on: date, actual: history, oracle: oracle, notes: ["a note"])
        // Forecast: |1.5 − 2| + |0.5 − 0| over 2 offered = 0.5.
        // Oracle: (E|N − 1| + E|N − 0.5|) / (1 + 0.5) = (0.735759 + 0.606531) / 1.5 = 0.894860.
        let line = backtest.lines["weekday"]!
        #expect(line.wape.forecast == 0.5)
        #expect(abs((line.oracleWAPE ?? 0) - 0.894860) < 1e-6)

        // The next day is shocked: its queue-day is scored on the "shock" line only.
        let next = date.adding(days: 1)
        oracle.shocked["q"] = [next]
        history.add(5, queue: "q", slot: DaySlot(40), on: next)
        let nextForecast = forecast.map { interval -> StaffingForecast.Interval in
            var interval = interval
            interval.date = next
            return interval
        }
        backtest.add(forecast: nextForecast, on: next, actual: history, oracle: oracle, notes: ["a note", "another"])
        #expect(backtest.lines["weekday"]!.queueDays == 1)
        #expect(backtest.lines[StaffingBacktest.shockLabel]!.queueDays == 1)
        #expect(backtest.lines[StaffingBacktest.shockLabel]!.actual == 5)
        #expect(backtest.notes == ["a note", "another"])
        #expect(backtest.table.components(separatedBy: "note: a note").count == 2)
        #expect(backtest.csv.split(separator: "\n").count == 3)
        #expect(backtest.csv.contains("\nweekday,1,2,0.5,"))
    }
}
