import Testing

@testable import ContactCenter

@Suite("Staffing requirement: zero volume, shrinkage, fractional agents, bad input")
struct StaffingRequirementTests {
    @Test("zero volume needs 0 agents, under both models")
    func zeroVolume() throws {
        let load = try TrafficLoad(volume: 0, intervalSeconds: 900, averageHandleTimeSeconds: 180)
        for model in [StaffingModel.erlangC, .erlangA(patienceSeconds: 90)] {
            let requirement = try StaffingRequirement(load: load, model: model, target: ServiceTarget(parsing: "80/20"))
            #expect(requirement.agents == 0)
            #expect(requirement.fractionalAgents == 0)
            #expect(requirement.performance.serviceLevel == 1)
        }
    }

    @Test("shrinkage divides: 14 at 30 % is 20, 100 at 50 % is 200 (never N × (1 + s))")
    func shrinkage() throws {
        #expect(try Shrinkage.scheduledAgents(productive: 14, shrinkage: 0.3) == 20)
        #expect(try Shrinkage.scheduledAgents(productive: 100, shrinkage: 0.5) == 200)
        #expect(try Shrinkage.scheduledAgents(productive: 10, shrinkage: 0) == 10)
        #expect(throws: StaffingError.shrinkageOutOfRange(1)) { try Shrinkage.scheduled(productive: 1, shrinkage: 1) }
        #expect(throws: StaffingError.shrinkageOutOfRange(-0.1)) {
            try Shrinkage.scheduled(productive: 1, shrinkage: -0.1)
        }
    }

    @Test("fractional requirements sum before rounding: four quarter-hours of A = 0.3 need fewer than four ceilings")
    func fractionalSums() throws {
        // A = 1.5 × 180 / 900 = 0.3: one agent answers 72 % within 20 s, two 99 %: N = 2, fractional ≈ 1.3.
        let load = try TrafficLoad(volume: 1.5, intervalSeconds: 900, averageHandleTimeSeconds: 180)
        let requirement = try StaffingRequirement(load: load, model: .erlangC, target: ServiceTarget(parsing: "80/20"))
        #expect(requirement.agents == 2)
        #expect(requirement.fractionalAgents > 1 && requirement.fractionalAgents < 1.5)
        let summedThenRounded = (requirement.fractionalAgents * 4).rounded(.up)
        #expect(summedThenRounded < Double(4 * requirement.agents))
    }

    @Test("bad input is an error that says what is wrong, never NaN")
    func badInput() throws {
        #expect(throws: StaffingError.serviceLevelOutOfRange(1)) { try ServiceTarget(parsing: "100/20") }
        #expect(throws: StaffingError.serviceLevelOutOfRange(0)) { try ServiceTarget(parsing: "0/20") }
        #expect(throws: StaffingError.thresholdNotPositive(0)) { try ServiceTarget(parsing: "80/0") }
        #expect(throws: StaffingError.serviceLevelSyntax("80%")) { try ServiceTarget(parsing: "80%") }
        #expect(throws: StaffingError.maximumOccupancyOutOfRange(0)) {
            try ServiceTarget(parsing: "80/20", maximumOccupancy: 0)
        }
        #expect(throws: StaffingError.maximumOccupancyOutOfRange(1.2)) {
            try ServiceTarget(parsing: "80/20", maximumOccupancy: 1.2)
        }
        #expect(throws: StaffingError.volumeOutOfRange(-1)) {
            try TrafficLoad(volume: -1, intervalSeconds: 900, averageHandleTimeSeconds: 180)
        }
        #expect(throws: StaffingError.handleTimeNotPositive(0)) {
            try TrafficLoad(volume: 1, intervalSeconds: 900, averageHandleTimeSeconds: 0)
        }
        let load = try TrafficLoad(volume: 10, intervalSeconds: 900, averageHandleTimeSeconds: 180)
        #expect(throws: StaffingError.patienceNotPositive(0)) {
            try StaffingRequirement(
                load: load, model: .erlangA(patienceSeconds: 0), target: ServiceTarget(parsing: "80/20"))
        }
        #expect(throws: StaffingError.agentsNegative(-1)) {
            try StaffingRequirement.performance(load: load, model: .erlangC, agents: -1, thresholdSeconds: 20)
        }
        #expect(StaffingError.serviceLevelOutOfRange(1).description.contains("80/20"))
    }

    @Test("an understaffed Erlang C queue has no finite ASA and a service level of 0")
    func unbounded() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        let p = try StaffingRequirement.performance(load: load, model: .erlangC, agents: 10, thresholdSeconds: 20)
        #expect(p.serviceLevel == 0)
        #expect(p.averageSpeedOfAnswerSeconds == nil)
        #expect(p.probabilityOfWaiting == 1)
    }
}
