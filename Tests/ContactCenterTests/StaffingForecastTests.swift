import Primitives
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
        let offered = Dictionary(uniqueKeysWithValues: offered.map { (DaySlot($0.key), $0.value) })
        return StaffingBaseline(
            weight: weight, days: 2, offered: offered, handleSeconds: offered.mapValues { $0 * 120 },
            handled: offered)
    }

    /// December `day`, 2026 (the 1st is a Tuesday, the 5th a Saturday).
    static func day(_ day: Int) -> CivilDate { CivilDate(year: 2026, month: 12, day: day)! }

    /// `dates` with each store's day types of `types` (store → day of December → type).
    static func calendar(_ dates: ClosedRange<Int>, _ types: [String: [Int: DayType]] = [:]) -> StaffingCalendar {
        var calendar = StaffingCalendar(day(dates.lowerBound)...day(dates.upperBound))
        for (store, days) in types {
            for (date, type) in days { calendar.set(type, store: store, on: day(date)) }
        }
        return calendar
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
            queues: Self.queues, baselines: Self.baselines,
            calendar: Self.calendar(
                1...3, ["a": [1: .weekday, 2: .holiday, 3: .closure], "b": [1: .weekday, 2: .holiday]]))
        let at40 = Dictionary(
            uniqueKeysWithValues: forecast.intervals.filter { $0.slot == DaySlot(40) }.map { ($0.date.day, $0) })
        #expect(abs(at40[1]!.offered - (9.1 / 1.85 + 2)) < 1e-12)
        #expect(at40[2]!.offered == 12 + 3)  // b's holiday from its weekends
        #expect(at40[2]!.dayTypesLabel == "holiday")
        #expect(at40[3]!.offered == 2)  // a closed; b's weekday (no day type given: a Thursday)
        #expect(at40[3]!.dayTypesLabel == "weekday+closure")
        #expect(at40[1]!.averageHandleTimeSeconds == 120)
        // Slot 41 exists for every date: b's weekdays offer 1 there, its weekends (its holiday's fallback) 0.
        #expect(forecast.intervals.filter { $0.slot == DaySlot(41) }.map(\.offered) == [1, 0, 1])
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
        let forecast = StaffingForecast(queues: queues, baselines: Self.baselines, calendar: Self.calendar(1...1))
        let plan = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangA, target: ServiceTarget(parsing: "80/20"),
            shrinkage: 0.3)
        #expect(plan.notes == ["queue Reservations: no abandons in its history: Erlang C"])
        #expect(plan.rows.count == 2)
        let fractional = plan.rows.reduce(0) { $0 + $1.requirement!.fractionalAgents }
        #expect(plan.agentHours.first!.hours == Int((fractional / 4).rounded(.up)))
        #expect(plan.csv.hasPrefix("queue,date,time,day_types,offered"))
        #expect(plan.csv.contains("q,2026-12-01,10:00,weekday,"))
        // Every line, field by field, as the string formatter writes each value.
        let lines = plan.csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == plan.rows.count + 2 && lines.last == "")
        for (row, line) in zip(plan.rows, lines.dropFirst()) {
            let r = try #require(row.requirement)
            let p = r.performance
            let f = row.forecast
            let expected = [
                f.queue, f.date.description, f.slot.clock, f.dayTypesLabel,
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
        // Friday the 4th and Saturday the 5th.
        let calendar = Self.calendar(4...5, ["a": [5: .weekend], "b": [5: .weekend]])
        let forecast = StaffingForecast(queues: queues, baselines: baselines, calendar: calendar)
        let target = try ServiceTarget(parsing: "80/20")
        let whole = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangA, target: target, shrinkage: 0.2)
        var parts = try StaffingPlan(model: .erlangA, target: target, shrinkage: 0.2)
        var handed: [StaffingPlan.Row] = []
        var partIntervals: [StaffingForecast.Interval] = []
        for queue in ["calm", "q"] {
            let part = StaffingForecast(queues: queues, baselines: baselines, calendar: calendar, only: queue)
            #expect(part.intervals.allSatisfy { $0.queue == queue })
            partIntervals += part.intervals
            handed += try parts.staff(part, queues: queues)
        }
        #expect(partIntervals == forecast.intervals)
        #expect(parts.rows == whole.rows)
        #expect(handed == whole.rows)
        #expect(parts.notes == whole.notes)
        #expect(whole.notes.contains { $0.contains("queue Calm: falling back") || $0.contains("of queue Calm") })
        #expect(whole.notes.contains("queue Calm: no abandons in its history: Erlang C"))
    }

    @Test("an ordinary day from its own weekday's days; a weekday without any from the type's other weekdays pooled")
    func sameWeekday() {
        // Store a: Fridays 10 contacts a day (weight 2: two Fridays of 10), Tuesdays 2 (weight 1).
        // December 2026: the 4th is a Friday, the 1st a Tuesday, the 2nd a Wednesday (no
        // Wednesday in the history: the pool of Fridays and Tuesdays, (20 + 2) / 3).
        let baselines: [StaffingBaselineKey: StaffingBaseline] = [
            StaffingBaselineKey(queue: "q", store: "a", dayType: .weekday, weekday: .friday): Self.baseline(
                weight: 2, offered: [40: 20]),
            StaffingBaselineKey(queue: "q", store: "a", dayType: .weekday, weekday: .tuesday): Self.baseline(
                weight: 1, offered: [40: 2]),
        ]
        let queues = [
            "q": StaffingQueueHistory(
                name: "Q", stores: ["a"], averageHandleTimeSeconds: 150, abandoned: 1, queueSeconds: 10)
        ]
        let forecast = StaffingForecast(queues: queues, baselines: baselines, calendar: Self.calendar(1...4))
        let at40 = Dictionary(
            uniqueKeysWithValues: forecast.intervals.filter { $0.slot == DaySlot(40) }.map { ($0.date.day, $0.offered) }
        )
        #expect(at40[4] == 10)
        #expect(at40[1] == 2)
        #expect(abs(at40[2]! - 22.0 / 3) < 1e-12)
        #expect(forecast.notes.isEmpty)
    }

    @Test("a pre-holiday from pre-holidays with its opening hours, else from all; a day without opening is 0")
    func specialDaysByHours() {
        // Store a's pre-holidays: open 11:00-21:00 (a Sunday's hours) twice, 20 contacts at slot
        // 48; open 17:00-23:00 (a weekday's) once, 6 at slot 72.
        let baselines: [StaffingBaselineKey: StaffingBaseline] = [
            StaffingBaselineKey(queue: "q", store: "a", dayType: .preHoliday, hours: "11:00-21:00"): Self.baseline(
                weight: 2, offered: [48: 20]),
            StaffingBaselineKey(queue: "q", store: "a", dayType: .preHoliday, hours: "17:00-23:00"): Self.baseline(
                weight: 1, offered: [72: 6]),
        ]
        let queues = [
            "q": StaffingQueueHistory(
                name: "Q", stores: ["a"], averageHandleTimeSeconds: 150, abandoned: 1, queueSeconds: 10)
        ]
        // December 6 (a Sunday) opens 11:00-21:00; the 7th 17:00-23:00; the 8th at hours no
        // pre-holiday had (the pool: (20 + 6) / 3 contacts, 20/3 at 48 and 2 at 72); the 9th not at all.
        var calendar = Self.calendar(6...9, ["a": [6: .preHoliday, 7: .preHoliday, 8: .preHoliday, 9: .preHoliday]])
        calendar.setHours("11:00-21:00", store: "a", on: Self.day(6))
        calendar.setHours("17:00-23:00", store: "a", on: Self.day(7))
        calendar.setHours("12:00-20:00", store: "a", on: Self.day(8))
        calendar.setHours(StaffingCalendar.closed, store: "a", on: Self.day(9))
        let forecast = StaffingForecast(queues: queues, baselines: baselines, calendar: calendar)
        func offered(_ day: Int, _ slot: Int) -> Double? {
            forecast.intervals.first { $0.date.day == day && $0.slot.index == slot }?.offered
        }
        #expect(offered(6, 48) == 10 && offered(6, 72) == 0)
        #expect(offered(7, 48) == 0 && offered(7, 72) == 6)
        #expect(abs(offered(8, 48)! - 20.0 / 3) < 1e-12 && abs(offered(8, 72)! - 2) < 1e-12)
        #expect(offered(9, 48) == 0 && offered(9, 72) == 0)
        #expect(forecast.notes.isEmpty)
    }

    @Test("slot 96 + k of a date and slot k of the next are one interval: the later date carries their sum")
    func acrossMidnight() {
        // Store a, open past midnight: 2 contacts at 00:15 of the next morning (slot 97). Store b:
        // 3 contacts at 00:15 (slot 1), calls that reach the queue just after its midnight close.
        let baselines: [StaffingBaselineKey: StaffingBaseline] = [
            StaffingBaselineKey(queue: "q", store: "a", dayType: .weekday): Self.baseline(weight: 1, offered: [97: 2]),
            StaffingBaselineKey(queue: "q", store: "b", dayType: .weekday): Self.baseline(weight: 1, offered: [1: 3]),
        ]
        // December 1 and 2 (Tuesday, Wednesday): the 1st's slot 97 is the 2nd's slot 1.
        let forecast = StaffingForecast(queues: Self.queues, baselines: baselines, calendar: Self.calendar(1...2))
        let intervals = forecast.intervals.map { "\($0.date.day) \($0.slot.index) \($0.offered)" }
        #expect(intervals == ["1 1 3.0", "2 1 5.0", "2 97 2.0"])
        let instants = forecast.intervals.map { $0.date.dayNumber * 96 + $0.slot.index }
        #expect(Set(instants).count == instants.count)
        // One date alone keeps both: they are different instants.
        let one = StaffingForecast(queues: Self.queues, baselines: baselines, calendar: Self.calendar(1...1))
        #expect(one.intervals.map { "\($0.slot.index) \($0.offered)" } == ["1 3.0", "97 2.0"])
    }

    @Test("the backtest's WAPE: Σ |error| / Σ actual per day type, against last week and the 8-week mean")
    func backtest() {
        var backtest = StaffingBacktest()
        let date = Self.day(29)
        let forecast = [
            StaffingForecast.Interval(
                queue: "q", date: date, slot: DaySlot(40), dayTypes: [.holiday], offered: 10,
                averageHandleTimeSeconds: 100)
        ]
        var history = OfferedHistory()
        history.add(12, queue: "q", slot: DaySlot(40), on: date)
        history.add(4, queue: "q", slot: DaySlot(40), on: date.adding(days: -7))
        history.add(8, queue: "q", slot: DaySlot(40), on: date.adding(days: -14))
        history.add(100, queue: "other", slot: DaySlot(40), on: date)  // another queue: not this one's actual
        backtest.add(forecast: forecast, on: date, actual: history)
        let wape = backtest.lines["holiday"]!.wape
        #expect(wape.forecast == 2.0 / 12)
        #expect(wape.lastWeek == 8.0 / 12)
        #expect(wape.eightWeeks == 10.5 / 12)  // (4 + 8 + six empty weeks) / 8 = 1.5
        #expect(backtest.table.contains("holiday"))
    }
}
