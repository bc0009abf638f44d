import ContactCenter
import Primitives
import Testing

/// The intraday reforecast (docs/staffing.md, "Intraday"): every expected figure is worked out by
/// hand from r = (k + N) / (k + F), the weights 2^(−age / half-life) and the handle-time ratio,
/// in the comments beside it.
@Suite("Intraday reforecast")
struct IntradayReforecastTests {
    typealias Plan = IntradayReforecast.PlanSlot
    typealias Actual = IntradayReforecast.ActualSlot

    static func plan(_ slots: ClosedRange<Int>, offered: Double, aht: Double? = 120) -> [DaySlot: Plan] {
        Dictionary(
            uniqueKeysWithValues: slots.map {
                (DaySlot($0), Plan(offered: offered, averageHandleTimeSeconds: aht, agents: 2))
            })
    }

    static func actual(_ counts: [Int: Double], store: String = "s") -> [DaySlot: Actual] {
        Dictionary(uniqueKeysWithValues: counts.map { (DaySlot($0.key), Actual(offeredByStore: [store: $0.value])) })
    }

    static func volumeOnly(k: Double, halfLife: Double? = nil) -> IntradayParameters {
        IntradayParameters(volumePriorContacts: k, halfLifeMinutes: halfLife, handleTimePriorContacts: 30)
    }

    @Test("closed slots: r = (k + N) / (k + F) applied to the rest")
    func closedSlots() throws {
        // Plan 4 per slot 10:00–12:00 (slots 40–47); at 11:00 slots 40–43 closed with 6 each:
        // N = 24, F = 16, k = 4: r = 28 / 20 = 1.4; slot 44 = 4 × 1.4 = 5.6.
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(40...47, offered: 4), actual: Self.actual([40: 6, 41: 6, 42: 6, 43: 6]),
            minute: 660, staffed: { _ in nil }, staffing: nil, parameters: Self.volumeOnly(k: 4))
        let slot44 = try #require(r.slots.first { $0.slot == DaySlot(44) })
        #expect(abs(slot44.reforecastOffered - 5.6) < 1e-9)
        #expect(slot44.state == .future)
        #expect(abs(r.volumeRatio - 1.4) < 1e-9)
        let slot41 = try #require(r.slots.first { $0.slot == DaySlot(41) })
        #expect(slot41.state == .closed)
        #expect(slot41.reforecastOffered == 6)
    }

    @Test("the current slot: its contacts so far and the reforecast of its remaining minutes")
    func currentSlot() throws {
        // At 11:07:30 slot 44 is half elapsed with 3 contacts: F = 16 + 0.5 × 4 = 18, N = 24 + 3 = 27,
        // r = 31 / 22 = 1.409091; slot 44 = 3 + 1.409091 × 4 × 0.5 = 5.818182.
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(40...47, offered: 4),
            actual: Self.actual([40: 6, 41: 6, 42: 6, 43: 6, 44: 3]), minute: 667.5, staffed: { _ in nil },
            staffing: nil, parameters: Self.volumeOnly(k: 4))
        let slot44 = try #require(r.slots.first { $0.slot == DaySlot(44) })
        #expect(slot44.state == .current)
        #expect(abs(slot44.reforecastOffered - 5.818182) < 1e-6)
        let slot45 = try #require(r.slots.first { $0.slot == DaySlot(45) })
        #expect(abs(slot45.reforecastOffered - 4 * 31 / 22) < 1e-9)
    }

    @Test("contacts in progress count in the current slot")
    func inProgress() throws {
        // As above with 2 contacts on the floor and no record yet: N = 29, r = 33 / 22 = 1.5;
        // slot 44 = 3 + 2 + 1.5 × 2 = 8.
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(40...47, offered: 4),
            actual: Self.actual([40: 6, 41: 6, 42: 6, 43: 6, 44: 3]), inProgress: 2, minute: 667.5,
            staffed: { _ in nil }, staffing: nil, parameters: Self.volumeOnly(k: 4))
        let slot44 = try #require(r.slots.first { $0.slot == DaySlot(44) })
        #expect(abs(slot44.reforecastOffered - 8) < 1e-9)
    }

    @Test("older slots weigh less: 2^(−age / half-life)")
    func halfLife() throws {
        // Half-life 15 min at 11:00: slot 43's midpoint is 7.5 min old (w = 2^−0.5 = 0.707107),
        // slot 42's 22.5 min (w = 2^−1.5 = 0.353553). Plan 4 each, actual 2 then 8:
        // F = 4 × 0.353553 + 4 × 0.707107 = 4.242641, N = 2 × 0.353553 + 8 × 0.707107 = 6.363961;
        // k = 1: r = 7.363961 / 5.242641 = 1.404628.
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(42...44, offered: 4), actual: Self.actual([42: 2, 43: 8]), minute: 660,
            staffed: { _ in nil }, staffing: nil, parameters: Self.volumeOnly(k: 1, halfLife: 15))
        let slot44 = try #require(r.slots.first { $0.slot == DaySlot(44) })
        #expect(abs(slot44.reforecastOffered - 4 * 1.404628) < 1e-5)
    }

    @Test("the queue's level, and each store's around it")
    func stores() throws {
        // Slots 48–50 plan 10: store a 6, store b 4. a offered 6 and 6 (N 12 = F 12), b 8 and 8
        // (N 16, F 8). The queue: N 28, F 20, k = 2: r = 30 / 22 = 1.363636; slot 50 = 13.636364.
        // Stores around it with k_s = 2: r_a = (2 × 1.363636 + 12) / 14 = 1.051948,
        // r_b = (2 × 1.363636 + 16) / 10 = 1.872727; slot 50 = 6 × 1.051948 + 4 × 1.872727 = 13.802597.
        var plan: [DaySlot: Plan] = [:]
        for slot in 48...50 {
            plan[DaySlot(slot)] = Plan(
                offered: 10, averageHandleTimeSeconds: 120, agents: nil, offeredByStore: ["a": 6, "b": 4])
        }
        let actual = [
            DaySlot(48): Actual(offeredByStore: ["a": 6, "b": 8]),
            DaySlot(49): Actual(offeredByStore: ["a": 6, "b": 8]),
        ]
        let queue = try IntradayReforecast(
            queue: "q", plan: plan, actual: actual, minute: 750, staffed: { _ in nil }, staffing: nil,
            parameters: Self.volumeOnly(k: 2))
        let whole = try #require(queue.slots.first { $0.slot == DaySlot(50) })
        #expect(abs(whole.reforecastOffered - 13.636364) < 1e-6)
        #expect(abs(queue.volumeRatio - 1.363636) < 1e-6)
        let byStore = try IntradayReforecast(
            queue: "q", plan: plan, actual: actual, minute: 750, staffed: { _ in nil }, staffing: nil,
            parameters: IntradayParameters(
                volumePriorContacts: 2, storePriorContacts: 2, halfLifeMinutes: nil, handleTimePriorContacts: 30))
        let split = try #require(byStore.slots.first { $0.slot == DaySlot(50) })
        #expect(abs(split.reforecastOffered - 13.802597) < 1e-6)
    }

    @Test("handle time: (k_h + Σ handle / plan AHT) / (k_h + handled)")
    func handleTime() throws {
        // 10 handled contacts of 150 s against a plan of 100 s: 1,500 / 100 = 15; k_h = 10:
        // (10 + 15) / (10 + 10) = 1.25; the next slot's AHT 100 × 1.25 = 125.
        let parameters = IntradayParameters(volumePriorContacts: 4, halfLifeMinutes: nil, handleTimePriorContacts: 10)
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(40...41, offered: 10, aht: 100),
            actual: [DaySlot(40): Actual(offeredByStore: ["s": 10], answered: 10, handleSeconds: 1_500, handled: 10)],
            minute: 615, staffed: { _ in nil }, staffing: nil, parameters: parameters)
        #expect(abs(r.handleTimeRatio - 1.25) < 1e-12)
        let slot41 = try #require(r.slots.first { $0.slot == DaySlot(41) })
        #expect(abs((slot41.reforecastAverageHandleTimeSeconds ?? 0) - 125) < 1e-9)
        let slot40 = try #require(r.slots.first { $0.slot == DaySlot(40) })
        #expect(slot40.reforecastAverageHandleTimeSeconds == 150)
    }

    @Test("staffing: needed, predicted with the staffed, what-if beside; shortfall over the next hour")
    func staffingAndWhatIf() throws {
        // Erlang C, 80/20: plan 20 contacts of 180 s per slot: A = 20 × 180 / 900 = 4 Erlangs.
        // With nothing seen (k = 4, F = 0 at 10:00) the reforecast is the plan.
        let target = try ServiceTarget(parsing: "80/20")
        let staffing = IntradayReforecast.Staffing(model: .erlangC, target: target, patienceSeconds: nil)
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(40...47, offered: 20, aht: 180), actual: [:], minute: 600,
            staffed: { _ in 5 }, changes: [DaySlot(41): 1], staffing: staffing, parameters: Self.volumeOnly(k: 4))
        let slot41 = try #require(r.slots.first { $0.slot == DaySlot(41) })
        let load = try TrafficLoad(volume: 20, intervalSeconds: 900, averageHandleTimeSeconds: 180)
        let required = try StaffingRequirement(load: load, model: .erlangC, target: target)
        #expect(slot41.agentsNeeded == required.agents)
        // Erlang C at A = 4: P(wait) with 5 agents = 0.554 (tables), SL 20 s = 1 − 0.554 e^(−1 × 20/180) = 0.504;
        // with 6: P(wait) 0.2848, SL = 1 − 0.2848 e^(−2 × 20/180) = 0.7720.
        let five = try #require(slot41.predicted)
        let six = try #require(slot41.whatIf)
        #expect(abs(five.serviceLevel - 0.504) < 0.002)
        #expect(abs(six.serviceLevel - 0.7720) < 0.002)
        #expect(slot41.whatIfStaffed == 6)
        // No change outside the window.
        let slot42 = try #require(r.slots.first { $0.slot == DaySlot(42) })
        #expect(slot42.whatIfStaffed == nil)
        // 7 agents are needed at 80/20 (A = 4); 5 staffed: short by 2 over the next hour.
        #expect(required.agents == 7)
        #expect(r.shortfallNextHour == 2)
        #expect(r.missesTargetNextHour(target))
    }

    @Test("a fractional staffing interpolates between its whole neighbours")
    func fractionalStaffing() throws {
        let target = try ServiceTarget(parsing: "80/20")
        let staffing = IntradayReforecast.Staffing(model: .erlangC, target: target, patienceSeconds: nil)
        let r = try IntradayReforecast(
            queue: "q", plan: Self.plan(40...40, offered: 20, aht: 180), actual: [:], minute: 600,
            staffed: { _ in 5.5 }, staffing: staffing, parameters: Self.volumeOnly(k: 4))
        // Halfway between 0.5042 (5 agents) and 0.7720 (6): 0.6381.
        let p = try #require(r.slots.first?.predicted)
        #expect(abs(p.serviceLevel - 0.6381) < 0.002)
    }
}

@Suite("What-if changes")
struct IntradayChangeTests {
    @Test("adding and moving agents, as written")
    func parses() throws {
        let add = try IntradayChange(adding: "2@18:00-20:00")
        #expect(add.kind == .add)
        #expect(add.agents == 2)
        #expect(add.window == 1_080..<1_200)
        #expect(add.description == "2@18:00-20:00")
        let move = try IntradayChange(moving: "1:ramen->izakaya@22:00-01:00")
        #expect(move.kind == .move(from: "ramen", to: "izakaya"))
        #expect(move.window == 1_320..<1_500)
        #expect(move.description == "1:ramen->izakaya@22:00-25:00")
        #expect(try IntradayChange(adding: "3@24:30-26:00").window == 1_470..<1_560)
    }

    @Test("a slot counts when it starts within the window; a move takes from one queue and gives to the other")
    func covers() throws {
        let move = try IntradayChange(moving: "2:a->b@18:00-18:30")
        let resolve = { (label: String) in label }
        #expect(move.delta(queue: "b", slot: DaySlot(72), asked: nil, resolve: resolve) == 2)
        #expect(move.delta(queue: "a", slot: DaySlot(73), asked: nil, resolve: resolve) == -2)
        #expect(move.delta(queue: "a", slot: DaySlot(74), asked: nil, resolve: resolve) == 0)
        #expect(move.delta(queue: "c", slot: DaySlot(72), asked: nil, resolve: resolve) == 0)
        let add = try IntradayChange(adding: "1@18:00-18:15")
        #expect(add.delta(queue: "a", slot: DaySlot(72), asked: "a", resolve: resolve) == 1)
        #expect(add.delta(queue: "b", slot: DaySlot(72), asked: "a", resolve: resolve) == 0)
    }

    @Test(
        "refusals say what is wrong",
        arguments: [
            ("0@18:00-19:00", "whole number"), ("2@18:00", "HH:MM-HH:MM"), ("2@18:60-19:00", "HH:MM-HH:MM"),
            ("x@18:00-19:00", "whole number"), ("2-18:00", "expected"),
        ])
    func refusesAdd(text: String, problem: String) {
        #expect(throws: IntradayChangeError.self) { try IntradayChange(adding: text) }
        do {
            _ = try IntradayChange(adding: text)
        } catch {
            #expect(error.description.contains(problem))
        }
    }

    @Test("a move needs two different queues")
    func refusesMove() {
        #expect(throws: IntradayChangeError.self) { try IntradayChange(moving: "1:a->a@18:00-19:00") }
        #expect(throws: IntradayChangeError.self) { try IntradayChange(moving: "1:a@18:00-19:00") }
        #expect(throws: IntradayChangeError.self) { try IntradayChange(moving: "1:->b@18:00-19:00") }
    }
}

@Suite("Intraday backtest")
struct IntradayBacktestTests {
    @Test("WAPEs over the rest of the day, the recovery and the change, by hand")
    func scores() throws {
        // Plan 4 per slot 44–47; offered 8 in each. At 11:30 (slot 46), N = 16, F = 8, k = 4:
        // r = 20 / 12; the rest reforecast 6.667 each. Over slots 46–47: offered 16, morning
        // error 8 (WAPE 0.5), reforecast error 2 × 1.333 = 2.667 (0.1667). Oracle λ = 8: E|N − λ|
        // = 2 e^−8 8^9 / 8! = 2.233385 per slot, WAPE 4.46677 / 16 = 0.279173.
        // Recovery (0.5 − 0.166667) / (0.5 − 0.279173) = 1.509478.
        var backtest = IntradayBacktest(
            parameters: IntradayParameters(volumePriorContacts: 4, halfLifeMinutes: nil, handleTimePriorContacts: 30))
        var plan: [DaySlot: IntradayReforecast.PlanSlot] = [:]
        var actual: [DaySlot: IntradayReforecast.ActualSlot] = [:]
        var oracle: [DaySlot: Double] = [:]
        for slot in 44...47 {
            plan[DaySlot(slot)] = .init(offered: 4, averageHandleTimeSeconds: 120, agents: nil)
            actual[DaySlot(slot)] = .init(offeredByStore: ["s": 8])
            oracle[DaySlot(slot)] = 8
        }
        try backtest.add("shock+1h", queue: "q", plan: plan, actual: actual, oracle: oracle, minute: 690)
        let line = try #require(backtest.lines.first)
        #expect(line.actual == 16)
        #expect(abs((line.morningWAPE ?? 0) - 0.5) < 1e-12)
        #expect(abs((line.reforecastWAPE ?? 0) - 1.0 / 6) < 1e-9)
        #expect(abs((line.oracleWAPE ?? 0) - 0.279173) < 1e-6)
        #expect(abs((line.recovery ?? 0) - 1.509478) < 1e-5)
        #expect(abs((line.change ?? 0) - 1.0 / 3) < 1e-9)
    }
}

@Suite("Intraday: the live floor's part")
struct IntradayLiveTests {
    @Test("in progress: waiting in the queue plus contacts on a desk (not missed), by queue name or id")
    func inProgress() {
        let queues = [
            QueueView(
                id: "arn:a", name: "A", waiting: 2, oldestWaitSince: nil, offered: 0, answered: 0, abandoned: 0,
                answeredWithinThreshold: 0, serviceLevel: nil),
            QueueView(
                id: "arn:b", name: "B", waiting: 0, oldestWaitSince: nil, offered: 0, answered: 0, abandoned: 0,
                answeredWithinThreshold: 0, serviceLevel: nil),
        ]
        func contact(_ id: String, _ state: AgentContactView.State, _ queue: String) -> AgentContactView {
            AgentContactView(contactId: id, channel: "VOICE", state: state, since: nil, queue: queue)
        }
        let agents = [
            AgentView(
                id: "x", name: "x", username: nil, activity: .onContact, status: "", statusType: "ROUTABLE",
                statusSince: nil, routingProfile: nil, queues: ["A", "B"],
                contacts: [contact("c1", .connected, "A"), contact("c2", .missed, "A")]),
            AgentView(
                id: "y", name: "y", username: nil, activity: .afterContactWork, status: "", statusType: "ROUTABLE",
                statusSince: nil, routingProfile: nil, queues: ["B"],
                contacts: [contact("c3", .afterContactWork, "arn:b")]),
        ]
        let view = FloorView(
            businessDay: nil, serviceLevelThresholdSeconds: 20, agents: agents, queues: queues,
            summary: FloorSummary(agents: agents, queues: queues))
        // A: 2 waiting + c1 connected (c2 missed does not count) = 3; B: c3 in after-contact work = 1.
        // Staffed with loads A 3, B 1: x shares 0.75 / 0.25, y serves B alone: A 0.75, B 1.25.
        let live = IntradayLive(view: view, offeredLoad: ["arn:a": 3, "arn:b": 1])
        #expect(live.inProgress == ["arn:a": 3, "arn:b": 1])
        #expect(live.staffed == ["arn:a": 0.75, "arn:b": 1.25])
    }
}
