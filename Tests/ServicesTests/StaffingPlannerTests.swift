import ContactCenter
import Primitives
import Synchronization
import Testing

@testable import Services

/// The planner over in-memory records: what it reads for a request, how it names a queue, what
/// it stores, and how often it refreshes the history.
@Suite("Staffing planner over its port")
struct StaffingPlannerTests {
    /// Records of one queue, "q" (named Reservations), fed by store "s", 8 contacts in slot 40 of
    /// every weekday; what the planner asks is logged.
    final class Records: StaffingRecords {
        struct Log {
            var refreshes = 0
            var calendars: [ClosedRange<CivilDate>] = []
            var saved: [(StaffingPlanRequest, String?, Int)] = []
        }

        let log = Mutex(Log())

        func refreshHistory(unlessRefreshedWithin period: Duration) async throws -> Int {
            log.withLock { $0.refreshes += 1 }
            return 1
        }

        func knownQueues() async throws -> [String: String?] { ["q": "Reservations", "other": nil] }

        func queues(before start: CivilDate, queue: String?) async throws -> [String: StaffingQueueHistory] {
            let all = [
                "q": StaffingQueueHistory(
                    name: "Reservations", stores: ["s"], averageHandleTimeSeconds: 120, abandoned: 0, queueSeconds: 0)
            ]
            return queue.map { id in all.filter { $0.key == id } } ?? all
        }

        func baselines(
            before start: CivilDate, queue: String?
        ) async throws -> [StaffingBaselineKey: StaffingBaseline] {
            [
                StaffingBaselineKey(queue: "q", store: "s", dayType: .weekday): StaffingBaseline(
                    weight: 1, days: 1, offered: [DaySlot(40): 8], handleSeconds: [DaySlot(40): 960],
                    handled: [DaySlot(40): 8])
            ]
        }

        func calendar(_ dates: ClosedRange<CivilDate>) async throws -> StaffingCalendar {
            log.withLock { $0.calendars.append(dates) }
            return StaffingCalendar(dates)
        }

        func offered(_ dates: ClosedRange<CivilDate>, queue: String?) async throws -> OfferedHistory {
            OfferedHistory()
        }

        func save(
            _ request: StaffingPlanRequest, queueId: String?, queueNames: [String: String],
            making make: (_ write: (ArraySlice<StaffingPlan.Row>) async throws -> Void) async throws -> StaffingPlan
        ) async throws -> (plan: StaffingPlan, planId: Int) {
            var written = 0
            let plan = try await make { rows in written += rows.count }
            log.withLock { $0.saved.append((request, queueId, written)) }
            return (plan, 7)
        }
    }

    /// Tuesday 1 and Wednesday 2 December 2026.
    static func request(queue: String? = nil) throws -> StaffingPlanRequest {
        try StaffingPlanRequest(
            dates: CivilDate(year: 2026, month: 12, day: 1)!...CivilDate(year: 2026, month: 12, day: 2)!,
            queue: queue, model: .erlangA, target: ServiceTarget(parsing: "80/20"), shrinkage: 0)
    }

    @Test("a queue asked by name is planned and stored under its id, every row written")
    func byName() async throws {
        let records = Records()
        let (result, planId) = try await StaffingPlanner(records: records).planAndSave(
            try Self.request(queue: "Reservations"))
        #expect(planId == 7)
        #expect(result.queueId == "q")
        #expect(result.plan.rows.count == 2, "slot 40 of each date")
        #expect(result.plan.rows.allSatisfy { $0.forecast.offered == 8 && $0.forecast.dayTypes == [.weekday] })
        let saved = records.log.withLock { $0.saved }
        #expect(saved.count == 1)
        #expect(saved.first?.1 == "q")
        #expect(saved.first?.2 == 2)
        #expect(records.log.withLock { $0.calendars } == [try Self.request().dates])
    }

    @Test("an unknown queue is refused naming the queues with history")
    func unknownQueue() async throws {
        await #expect(throws: StaffingRequestError(.queue, .unknownQueue("sushi", known: ["Reservations", "other"]))) {
            _ = try await StaffingPlanner(records: Records()).plan(try Self.request(queue: "sushi"))
        }
    }

    @Test("with a refresh period, plans asked together refresh and read once")
    func refreshOnce() async throws {
        let records = Records()
        let planner = StaffingPlanner(records: records, refreshEvery: .seconds(300))
        for _ in 0..<3 { _ = try await planner.plan(try Self.request()) }
        #expect(records.log.withLock { $0.refreshes } == 1)
        #expect(records.log.withLock { $0.calendars.count } == 1, "the reads are kept within the period")
        let always = StaffingPlanner(records: records)
        for _ in 0..<2 { _ = try await always.plan(try Self.request()) }
        #expect(records.log.withLock { $0.refreshes } == 3, "without a period every plan refreshes")
    }

    @Test("a read-only planner never refreshes, and still reads again once per period")
    func readOnly() async throws {
        let records = Records()
        let kept = StaffingPlanner(records: records, refreshEvery: .seconds(300), upkeep: .readOnly)
        for _ in 0..<3 { _ = try await kept.plan(try Self.request()) }
        #expect(records.log.withLock { $0.refreshes } == 0)
        #expect(records.log.withLock { $0.calendars.count } == 1, "the reads are kept within the period")
        let everyTime = StaffingPlanner(records: records, refreshEvery: .zero, upkeep: .readOnly)
        for _ in 0..<2 { _ = try await everyTime.plan(try Self.request()) }
        #expect(records.log.withLock { $0.calendars.count } == 3, "a period over: the history is read again")
        let unkept = StaffingPlanner(records: records, upkeep: .readOnly)
        _ = try await unkept.plan(try Self.request())
        _ = try await unkept.planAndSave(try Self.request(), rereadIf: { true })
        #expect(records.log.withLock { $0.refreshes } == 0, "not even when a plan reads again")
        #expect(records.log.withLock { $0.calendars.count } == 6)
    }

    @Test("a backtest reads the offered contacts of its days and the 8 weeks before them")
    func backtest() async throws {
        let records = Records()
        let request = try StaffingBacktestRequest(
            weeks: 1, before: CivilDate(year: 2026, month: 12, day: 8)!, queue: nil)
        let backtest = try await StaffingBacktester(records: records).run(request)
        #expect(records.log.withLock { $0.calendars.count } == 7, "one forecast per day")
        // Five weekdays forecast 8 in slot 40 against nothing offered: the forecast's WAPE has no actual.
        #expect(backtest.lines["weekday"]?.queueDays == 5)
        #expect(backtest.lines["weekday"]?.wape.forecast == nil)
    }
}
