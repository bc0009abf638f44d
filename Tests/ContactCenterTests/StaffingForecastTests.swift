import Testing

@testable import ContactCenter

/// The forecast's arithmetic without a database: weighted averages per store and day type, each
/// store by its own day type, fallbacks that say so, closures, and the backtest's WAPE.
@Suite("Staffing forecast: per-store day types, fallbacks, backtest")
struct StaffingForecastTests {
    static let queues = [
        "q": StaffingQueueHistory(
            name: "Reservations", stores: ["a", "b"], averageHandleTimeSeconds: 150, abandoned: 4, queueSeconds: 400)
    ]

    static func baseline(weight: Double, offered: [Int: Double]) -> StaffingBaseline {
        StaffingBaseline(
            weight: weight, days: 2, offered: offered, handleSeconds: offered.mapValues { $0 * 120 },
            handled: offered)
    }

    static let baselines: [StaffingBaselineKey: StaffingBaseline] = [
        // Σ weight × offered over two days weighted 1 and 0.85: 4 and 6 contacts give (4 + 5.1) / 1.85.
        StaffingBaselineKey(queue: "q", store: "a", dayType: .weekday): baseline(weight: 1.85, offered: [40: 9.1]),
        StaffingBaselineKey(queue: "q", store: "a", dayType: .holiday): baseline(weight: 1, offered: [40: 12]),
        StaffingBaselineKey(queue: "q", store: "b", dayType: .weekday): baseline(weight: 1, offered: [40: 2, 41: 1]),
        StaffingBaselineKey(queue: "q", store: "b", dayType: .weekend): baseline(weight: 1, offered: [40: 3]),
    ]

    @Test("each store by its own day type; a missing type falls back and says so; a closure is 0")
    func perStore() {
        let forecast = StaffingForecast(
            queues: Self.queues, baselines: Self.baselines, dates: ["d1", "d2", "d3"],
            dayTypes: ["a": ["d1": .weekday, "d2": .holiday, "d3": .closure], "b": ["d1": .weekday, "d2": .holiday]],
            weekendDates: [])
        let at40 = Dictionary(uniqueKeysWithValues: forecast.slots.filter { $0.slot == 40 }.map { ($0.date, $0) })
        #expect(abs(at40["d1"]!.offered - (9.1 / 1.85 + 2)) < 1e-12)
        #expect(at40["d2"]!.offered == 12 + 3)  // b's holiday from its weekends
        #expect(at40["d2"]!.dayTypes == "holiday")
        #expect(at40["d3"]!.offered == 2)  // a closed; b's weekday (no day type given: weekday)
        #expect(at40["d3"]!.dayTypes == "weekday+closure")
        #expect(at40["d1"]!.averageHandleTimeSeconds == 120)
        // Slot 41 exists for every date: b's weekdays offer 1 there, its weekends (its holiday's fallback) 0.
        #expect(forecast.slots.filter { $0.slot == 41 }.map(\.offered) == [1, 0, 1])
        #expect(forecast.notes == ["no history for holidays of queue Reservations: falling back to weekends"])
    }

    @Test("patience is Σ queue seconds / abandoned; none without abandons")
    func patience() {
        #expect(Self.queues["q"]!.patienceSeconds == 100)
        let calm = StaffingQueueHistory(
            name: nil, stores: [], averageHandleTimeSeconds: 100, abandoned: 0, queueSeconds: 50)
        #expect(calm.patienceSeconds == nil)
    }

    @Test("the plan staffs every slot, notes Erlang C for a queue without abandons, and sums before rounding")
    func plan() throws {
        var queues = Self.queues
        queues["q"]!.abandoned = 0
        let forecast = StaffingForecast(
            queues: queues, baselines: Self.baselines, dates: ["d1"], dayTypes: [:], weekendDates: [])
        let plan = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangA, target: ServiceTarget(parsing: "80/20"),
            shrinkage: 0.3)
        #expect(plan.notes == ["queue Reservations: no abandons in its history: Erlang C"])
        #expect(plan.rows.count == 2)
        let fractional = plan.rows.reduce(0) { $0 + $1.requirement!.fractionalAgents }
        #expect(plan.agentHours.first!.hours == Int((fractional / 4).rounded(.up)))
        #expect(plan.csv.hasPrefix("queue,date,time,day_types,offered"))
        #expect(plan.csv.contains("q,d1,10:00,weekday,"))
        // Every line, field by field, as the string formatter writes each value.
        let lines = plan.csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == plan.rows.count + 2 && lines.last == "")
        for (row, line) in zip(plan.rows, lines.dropFirst()) {
            let r = try #require(row.requirement)
            let p = r.performance
            let f = row.forecast
            let expected = [
                f.queue, f.date, StaffingForecast.clock(slot: f.slot), f.dayTypes,
                ErlangCalculation.format(f.offered, digits: 2),
                ErlangCalculation.format(f.averageHandleTimeSeconds!, digits: 1), "", "\(r.agents)",
                ErlangCalculation.format(r.fractionalAgents, digits: 2), "\(row.scheduledAgents)",
                ErlangCalculation.format(p.serviceLevel, digits: 4),
                ErlangCalculation.format(p.connectServiceLevel, digits: 4),
                ErlangCalculation.format(p.occupancy, digits: 4), "",
            ].joined(separator: ",")
            #expect(line == expected)
        }
    }

    @Test("a plan staffed queue by queue is the plan staffed at once, notes included")
    func planByParts() throws {
        var queues = Self.queues
        queues["calm"] = StaffingQueueHistory(
            name: "Calm", stores: ["a"], averageHandleTimeSeconds: 200, abandoned: 0, queueSeconds: 0)
        var baselines = Self.baselines
        for (key, baseline) in Self.baselines where key.queue == "q" {
            baselines[StaffingBaselineKey(queue: "calm", store: key.store, dayType: key.dayType)] = baseline
        }
        // b has no weekend history of calm's own: a fallback note per queue.
        baselines[StaffingBaselineKey(queue: "calm", store: "b", dayType: .weekend)] = nil
        let dayTypes: [String: [String: StaffingDayType]] = ["a": ["d2": .weekend], "b": ["d2": .weekend]]
        let forecast = StaffingForecast(
            queues: queues, baselines: baselines, dates: ["d1", "d2"], dayTypes: dayTypes, weekendDates: ["d2"])
        let target = try ServiceTarget(parsing: "80/20")
        let whole = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangA, target: target, shrinkage: 0.2)
        var parts = try StaffingPlan(model: .erlangA, target: target, shrinkage: 0.2)
        var handed: [StaffingPlan.Row] = []
        var partSlots: [StaffingForecast.Slot] = []
        for queue in ["calm", "q"] {
            let part = StaffingForecast(
                queues: queues, baselines: baselines, dates: ["d1", "d2"], dayTypes: dayTypes, weekendDates: ["d2"],
                only: queue)
            #expect(part.slots.allSatisfy { $0.queue == queue })
            partSlots += part.slots
            handed += try parts.staff(part, queues: queues)
        }
        #expect(partSlots == forecast.slots)
        #expect(parts.rows == whole.rows)
        #expect(handed == whole.rows)
        #expect(parts.notes == whole.notes)
        #expect(whole.notes.contains { $0.contains("queue Calm: falling back") || $0.contains("of queue Calm") })
        #expect(whole.notes.contains("queue Calm: no abandons in its history: Erlang C"))
    }

    @Test("the backtest's WAPE: Σ |error| / Σ actual per day type, against last week and the 8-week mean")
    func backtest() {
        var backtest = StaffingBacktest()
        let forecast = [
            StaffingForecast.Slot(
                queue: "q", date: "d", slot: 40, dayTypes: "holiday", offered: 10, averageHandleTimeSeconds: 100)
        ]
        let history: [[String: [Int: Double]]] = [["q": [40: 12]], ["q": [40: 4]], ["q": [40: 8]]]
        backtest.add(forecast: forecast, history: history)
        let wape = backtest.lines["holiday"]!.wape
        #expect(wape.forecast == 2.0 / 12)
        #expect(wape.lastWeek == 8.0 / 12)
        #expect(wape.eightWeeks == 6.0 / 12)  // mean of 4 and 8
        #expect(backtest.table.contains("holiday"))
    }
}
