import ContactCenter
import Primitives
import Testing

/// Staffed now per queue (docs/staffing.md): each figure below is worked out by hand from the
/// rule, agent by agent, not by the code under test.
@Suite("Staffed now")
struct StaffedNowTests {
    static func agent(_ id: String, _ activity: AgentActivity, serves queues: [String]) -> AgentView {
        AgentView(
            id: id, name: id, username: nil, activity: activity, status: "", statusType: "ROUTABLE", statusSince: nil,
            routingProfile: nil, queues: queues, contacts: [])
    }

    static func queue(_ id: String, _ name: String) -> QueueView {
        QueueView(
            id: id, name: name, waiting: 0, oldestWaitSince: nil, offered: 0, answered: 0, abandoned: 0,
            answeredWithinThreshold: 0, serviceLevel: nil)
    }

    static let queues = [queue("arn:a", "A"), queue("arn:b", "B"), queue("arn:c", "C")]

    static func floor(_ agents: [AgentView]) -> FloorView {
        FloorView(
            businessDay: nil, serviceLevelThresholdSeconds: 20, agents: agents, queues: queues,
            summary: FloorSummary(agents: agents, queues: queues))
    }

    /// Six agents: four count (available, on contact, after-contact work), two do not
    /// (lunch, ringing).
    static let agents = [
        agent("a1", .available, serves: ["A", "B"]),
        agent("a2", .onContact, serves: ["B", "C"]),
        agent("a3", .afterContactWork, serves: ["C"]),
        agent("a4", .customStatus, serves: ["A"]),
        agent("a5", .available, serves: ["A", "B", "C"]),
        agent("a6", .connecting, serves: ["A"]),
    ]

    static func expect(_ staffed: StaffedNow, _ expected: [String: Double], pool: Int) {
        #expect(staffed.pool == pool)
        #expect(Set(staffed.queues.keys) == Set(expected.keys))
        for (id, value) in expected {
            #expect(abs((staffed.queues[id] ?? .nan) - value) < 1e-12, "\(id): \(staffed.queues[id] ?? .nan)")
        }
    }

    @Test("an agent serving several queues counts toward each in proportion to the forecast load")
    func proportional() {
        // Loads A 3, B 1, C 0 Erlangs.
        // a1 (A, B): A 3/4, B 1/4.  a2 (B, C): B 1, C 0 (C is forecast 0).  a3 (C): C 1.
        // a5 (A, B, C): A 3/4, B 1/4, C 0.  a4 at lunch and a6 ringing do not count.
        // A = 0.75 + 0.75 = 1.5; B = 0.25 + 1 + 0.25 = 1.5; C = 1; pool 4 = 1.5 + 1.5 + 1.
        let staffed = StaffedNow(view: Self.floor(Self.agents), offeredLoad: ["arn:a": 3, "arn:b": 1, "arn:c": 0])
        Self.expect(staffed, ["arn:a": 1.5, "arn:b": 1.5, "arn:c": 1], pool: 4)
    }

    @Test("with every load 0, or no forecast at all, an agent counts equally toward each queue")
    func equalShares() {
        // a1 (A, B): 1/2 each.  a2 (B, C): 1/2 each.  a3 (C): 1.  a5 (A, B, C): 1/3 each.
        // A = 1/2 + 1/3 = 5/6; B = 1/2 + 1/2 + 1/3 = 4/3; C = 1/2 + 1 + 1/3 = 11/6.
        let expected = ["arn:a": 5.0 / 6, "arn:b": 4.0 / 3, "arn:c": 11.0 / 6]
        Self.expect(StaffedNow(view: Self.floor(Self.agents), offeredLoad: [:]), expected, pool: 4)
        Self.expect(
            StaffedNow(view: Self.floor(Self.agents), offeredLoad: ["arn:a": 0, "arn:b": 0, "arn:c": 0]), expected,
            pool: 4)
    }

    @Test("a queue named by ARN resolves, a queue listed twice counts once, no queue counts to the pool only")
    func labels() {
        let agents = [
            // By ARN and by name: one queue, A, wholly.
            Self.agent("x1", .available, serves: ["arn:a", "A"]),
            // B by ARN and C by name, loads 2 and 6 (a negative load counts 0): B 1/4, C 3/4.
            Self.agent("x2", .onContact, serves: ["arn:b", "C", "arn:z"]),
            // Serves nothing the floor knows a name for: its own label is the id.
            Self.agent("x3", .available, serves: ["arn:elsewhere"]),
            // No routing profile known.
            Self.agent("x4", .afterContactWork, serves: []),
        ]
        let staffed = StaffedNow(
            view: Self.floor(agents), offeredLoad: ["arn:b": 2, "arn:c": 6, "arn:z": -5, "arn:quiet": 1])
        // arn:z's load is negative (0): x2 gives it nothing; arn:quiet has load but no agent.
        Self.expect(
            staffed,
            ["arn:a": 1, "arn:b": 0.25, "arn:c": 0.75, "arn:z": 0, "arn:quiet": 0, "arn:elsewhere": 1],
            pool: 4)
    }

    @Test("the forecast offered load of a slot is contacts × AHT / 900 s per queue")
    func offeredLoad() throws {
        let day = try #require(CivilDate(year: 2026, month: 12, day: 30))
        let queues = [
            "q": StaffingQueueHistory(
                name: "Q", stores: ["s"], averageHandleTimeSeconds: 180, abandoned: 0, queueSeconds: 0)
        ]
        var calendar = StaffingCalendar(day...day)
        calendar.set(.weekday, store: "s", on: day)
        let forecast = StaffingForecast(
            queues: queues,
            baselines: [
                StaffingBaselineKey(queue: "q", store: "s", dayType: .weekday): StaffingBaseline(
                    weight: 1, days: 1, offered: [DaySlot(40): 10, DaySlot(41): 5],
                    handleSeconds: [DaySlot(40): 1_800, DaySlot(41): 1_500], handled: [DaySlot(40): 10, DaySlot(41): 5])
            ],
            calendar: calendar)
        let plan = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangC, target: try ServiceTarget(parsing: "80/20"),
            shrinkage: 0)
        // Slot 40: 10 contacts × 180 s / 900 s = 2 Erlangs; slot 41: 5 × 300 / 900 = 5/3.
        let forty = plan.offeredLoad(on: day, slot: DaySlot(40))
        let fortyOne = plan.offeredLoad(on: day, slot: DaySlot(41))
        #expect(abs((forty["q"] ?? 0) - 2) < 1e-9)
        #expect(abs((fortyOne["q"] ?? 0) - 5.0 / 3) < 1e-9)
        #expect(plan.offeredLoad(on: day.adding(days: 1), slot: DaySlot(40)).isEmpty)
    }
}
