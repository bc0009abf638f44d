import Primitives
import Testing

@testable import ContactCenter

/// Every number a staffing request carries is bounded where a planner's would be, and the work of
/// any request is bounded with it: no input traps, none searches without end.
@Suite("Staffing bounds: targets, shrinkage, the search, what-if changes, days")
struct StaffingBoundsTests {
    @Test("an occupancy cap under 0.5, a threshold or ASA over an hour are refused; the edges are kept")
    func targets() throws {
        for cap in [0.0001, 1e-9, 0.49] {
            #expect(throws: StaffingError.maximumOccupancyOutOfRange(cap)) {
                try ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 20, maximumOccupancy: cap)
            }
        }
        _ = try ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 3_600, maximumOccupancy: 0.5)
        #expect(throws: StaffingError.thresholdNotPositive(3_601)) { try ServiceTarget(parsing: "80/3601") }
        #expect(throws: StaffingError.averageSpeedOfAnswerNotPositive(3_601)) {
            try ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 20, averageSpeedOfAnswerSeconds: 3_601)
        }
        #expect(StaffingError.maximumOccupancyOutOfRange(0.2).description.contains("outside [0.5, 1]"))
    }

    @Test("shrinkage above 0.9 is refused, and agents to schedule are checked before they become an Int")
    func shrinkage() throws {
        // 10 / 0.1 = 100; at 0.9999999999999999, N / (1 − s) is 2^53 × N and overflows Int for a
        // large N: the crash of a GET before these bounds.
        #expect(try Shrinkage.scheduledAgents(productive: 10, shrinkage: 0.9) == 100)
        for s in [0.91, 0.9999999999999999] {
            #expect(throws: StaffingError.shrinkageOutOfRange(s)) {
                try Shrinkage.scheduledAgents(productive: 10, shrinkage: s)
            }
        }
        for productive in [Double.infinity, -1, 1e30, 10_001] {
            #expect(throws: StaffingError.agentsOutOfRange(productive)) {
                try Shrinkage.scheduledAgents(productive: productive, shrinkage: 0.9)
            }
        }
        #expect(try Shrinkage.scheduledAgents(productive: 10_000, shrinkage: 0.9) == 100_000)
    }

    @Test("the search tries at most 10,000 agents: a larger load or an unreachable cap is refused")
    func search() throws {
        let target = try ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 20, maximumOccupancy: 0.5)
        // 9,000 Erlangs (36,000 contacts of 225 s in 15 minutes) at most half busy need 18,000 agents.
        let heavy = try TrafficLoad(volume: 36_000, intervalSeconds: 900, averageHandleTimeSeconds: 225)
        #expect(throws: StaffingError.targetUnreachable(maximumAgents: 10_000)) {
            try StaffingRequirement(load: heavy, model: .erlangC, target: target)
        }
        let beyond = try TrafficLoad(volume: 1e12, intervalSeconds: 900, averageHandleTimeSeconds: 180)
        #expect(throws: StaffingError.loadBeyondSearch(beyond.offeredLoad, maximumAgents: 10_000)) {
            try StaffingRequirement(load: beyond, model: .erlangA(patienceSeconds: 60), target: target)
        }
        // 4,000 Erlangs at most half busy: 8,000 agents, found within the bound.
        let large = try TrafficLoad(volume: 16_000, intervalSeconds: 900, averageHandleTimeSeconds: 225)
        #expect(try StaffingRequirement(load: large, model: .erlangC, target: target).agents == 8_000)
        #expect(throws: StaffingError.agentsOutOfRange(10_001)) {
            try StaffingRequirement.performance(load: large, model: .erlangC, agents: 10_001, thresholdSeconds: 20)
        }
    }

    @Test("what-if: at most 16 changes, and 1,000 agents together in any slot")
    func whatIf() throws {
        func request(add: [String] = [], move: [String] = []) throws(IntradayRequestError) -> IntradayRequest {
            try IntradayRequest(
                date: "2026-12-02", at: "13:00", queue: "q", serviceLevel: "80/20", model: nil, add: add, move: move)
        }
        let sixteen = try request(add: Array(repeating: "1@10:00-11:00", count: 16))
        #expect(sixteen.changes.count == 16)
        #expect(throws: IntradayRequestError.self) { try request(add: Array(repeating: "1@10:00-11:00", count: 17)) }
        do {
            _ = try request(
                add: Array(repeating: "1@10:00-11:00", count: 9), move: Array(repeating: "1:a->b@10:00-11:00", count: 8)
            )
            Issue.record("17 changes of both kinds were taken")
        } catch {
            #expect(error.field == .moveAgents)
            #expect(error.problem.contains("at most 16 what-if changes"), "\(error.problem)")
        }
        // 600 + 600 overlap from 10:30 to 11:00: refused, naming the slot; side by side they pass.
        do {
            _ = try request(add: ["600@10:00-11:00", "600@10:30-12:00"])
            Issue.record("1,200 agents in one slot were taken")
        } catch {
            #expect(error.field == .addAgents)
            #expect(error.problem.contains("1200 agents in the slot at 10:30"), "\(error.problem)")
        }
        #expect(try request(add: ["600@10:00-11:00", "600@11:00-12:00"]).changes.count == 2)
        // Windows past midnight count too.
        #expect(throws: IntradayRequestError.self) { try request(add: ["1000@23:00-01:00", "1@24:30-25:00"]) }
    }

    @Test("a caller's day cap: an HTTP request plans at most 31 days, the command line 400")
    func days() throws {
        func plan(to: String, maximumDays: Int) throws(StaffingRequestError) -> StaffingPlanRequest {
            try StaffingPlanRequest(
                from: "2026-01-01", to: to, queue: nil, model: nil, serviceLevel: "80/20", maximumOccupancy: nil,
                shrinkage: nil, maximumDays: maximumDays)
        }
        func days(_ request: StaffingPlanRequest) -> Int {
            request.dates.upperBound.dayNumber - request.dates.lowerBound.dayNumber + 1
        }
        let month = StaffingPlanRequest.maximumDaysPerHTTPRequest
        #expect(days(try plan(to: "2026-01-31", maximumDays: month)) == 31)
        #expect(
            throws: StaffingRequestError(
                .to,
                .rangeTooLong(
                    CivilDate(year: 2026, month: 1, day: 1)!, CivilDate(year: 2026, month: 2, day: 1)!, days: 32,
                    maximum: 31))
        ) { try plan(to: "2026-02-01", maximumDays: month) }
        #expect(days(try plan(to: "2027-02-04", maximumDays: StaffingPlanRequest.maximumDays)) == 400)
        // A caller cannot raise the command line's cap.
        #expect(throws: StaffingRequestError.self) { try plan(to: "2027-02-05", maximumDays: 10_000) }
    }
}
