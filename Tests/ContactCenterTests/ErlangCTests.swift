import Foundation
import Testing

@testable import ContactCenter

/// Published vectors for Erlang B and C, with their sources, and large loads checked against an
/// independent formula (log-sum-exp over A^k/k!, which the product never forms).
@Suite("Erlang B and C: published vectors and large loads")
struct ErlangCTests {
    private func close(_ a: Double?, _ b: Double, _ tolerance: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance
    }

    @Test("Erlang B: B(1, 1) = 0.5, B(2, 1) = 0.2; A = 10 with blocking ≤ 2 % needs 17 (textbook values)")
    func erlangB() throws {
        #expect(ErlangB.blocking(agents: 1, load: 1) == 0.5)
        #expect(close(ErlangB.blocking(agents: 2, load: 1), 0.2, 1e-15))
        #expect(try ErlangB.agents(load: 10, maximumBlocking: 0.02) == 17)
        #expect(ErlangB.blocking(agents: 5000, load: 1) == 0)  // underflows to 0, never NaN
        #expect(!ErlangB.blocking(agents: 3000, load: 1000).isNaN)
    }

    // pyworkforce README and tests (tests/test_erlangc.py); CRAN ErlangC README: 100 calls in
    // 30 minutes, AHT 180 s, 80 % in 20 s, shrinkage 0.3.
    @Test("pyworkforce / CRAN ErlangC: 100 calls / 30 min, AHT 180 s, 80/20, shrinkage 0.3 → 14 agents, 20 scheduled")
    func pyworkforce() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        #expect(close(load.offeredLoad, 10, 1e-12))
        let target = try ServiceTarget(parsing: "80/20")
        let requirement = try StaffingRequirement(load: load, model: .erlangC, target: target)
        #expect(requirement.agents == 14)
        let p = requirement.performance
        #expect(close(p.serviceLevel, 0.8883500191794669, 1e-12))
        #expect(close(p.probabilityOfWaiting, 0.1741319335950498, 1e-12))
        #expect(close(p.occupancy, 0.7142857, 1e-7))
        #expect(close(p.averageSpeedOfAnswerSeconds, 7.83593701177724, 1e-10))
        #expect(try Shrinkage.scheduledAgents(productive: 14, shrinkage: 0.3) == 20)
        #expect(requirement.fractionalAgents > 13 && requirement.fractionalAgents <= 14)

        let eleven = try StaffingRequirement.performance(load: load, model: .erlangC, agents: 11, thresholdSeconds: 20)
        #expect(close(eleven.probabilityOfWaiting, 0.6821182, 1e-7))
        #expect(close(eleven.serviceLevel, 0.3896138, 1e-7))
    }

    // pyworkforce tests: the same traffic with max occupancy 0.70.
    @Test("pyworkforce: max occupancy 0.70 → 15 agents, 22 scheduled")
    func pyworkforceOccupancy() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        let target = try ServiceTarget(parsing: "80/20", maximumOccupancy: 0.70)
        let requirement = try StaffingRequirement(load: load, model: .erlangC, target: target)
        #expect(requirement.agents == 15)
        #expect(try Shrinkage.scheduledAgents(productive: 15, shrinkage: 0.3) == 22)
        #expect(close(requirement.fractionalAgents, 10 / 0.7, 1e-9))
    }

    // call-center-tools on PyPI: 1,000 calls an hour, AHT 120 s, 80/20, max occupancy 0.85.
    @Test("call-center-tools: 1,000 calls/h, AHT 120 s, 80/20, occupancy ≤ 0.85 → 40 (SL alone 38), 58 scheduled")
    func callCenterTools() throws {
        let load = try TrafficLoad(volume: 1000, intervalSeconds: 3600, averageHandleTimeSeconds: 120)
        let capped = try StaffingRequirement(
            load: load, model: .erlangC, target: ServiceTarget(parsing: "80/20", maximumOccupancy: 0.85))
        #expect(capped.agents == 40)
        #expect(close(capped.performance.probabilityOfWaiting, 0.1907, 5e-5))
        #expect(close(capped.performance.serviceLevel, 0.9372, 5e-5))
        #expect(close(capped.performance.averageSpeedOfAnswerSeconds, 3.43, 5e-3))
        #expect(try Shrinkage.scheduledAgents(productive: 40, shrinkage: 0.3) == 58)
        let uncapped = try StaffingRequirement(load: load, model: .erlangC, target: ServiceTarget(parsing: "80/20"))
        #expect(uncapped.agents == 38)
    }

    // turbotab on PyPI: 25 contacts per 600 s, AHT 180 s, 80/20, shrinkage 0.30.
    @Test("turbotab: 25 contacts / 600 s, AHT 180 s, 80/20, shrinkage 0.3 → 11 productive, 16 scheduled")
    func turbotab() throws {
        let load = try TrafficLoad(volume: 25, intervalSeconds: 600, averageHandleTimeSeconds: 180)
        let requirement = try StaffingRequirement(load: load, model: .erlangC, target: ServiceTarget(parsing: "80/20"))
        #expect(requirement.agents == 11)
        #expect(try Shrinkage.scheduledAgents(productive: 11, shrinkage: 0.3) == 16)
    }

    /// P(wait) by Erlang's formula in log space: an oracle that shares nothing with the recursion.
    private func oracleWaiting(agents n: Int, load a: Double) -> Double {
        let logTerms = (0...n).map { k in Double(k) * log(a) - lgamma(Double(k) + 1) }
        let logLast = logTerms[n] + log(Double(n) / (Double(n) - a))
        let all = logTerms[0..<n] + [logLast]
        let top = all.max()!
        let logTotal = top + log(all.reduce(0) { $0 + exp($1 - top) })
        return exp(logLast - logTotal)
    }

    @Test("A = 1,000 (and 5,000): required agents and P(wait) agree with the log-space formula")
    func largeLoads() throws {
        for erlangs in [1000.0, 5000.0] {
            let load = try TrafficLoad(volume: erlangs * 10, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
            let requirement = try StaffingRequirement(
                load: load, model: .erlangC, target: ServiceTarget(parsing: "80/20"))
            let n = requirement.agents
            // Square-root staffing puts N a little above A (β ≈ 0.4–1 for 80/20 at this scale).
            #expect(n > Int(erlangs) && n < Int(erlangs + 2 * erlangs.squareRoot()))
            #expect(close(requirement.performance.probabilityOfWaiting, oracleWaiting(agents: n, load: erlangs), 1e-9))
            // exp(−(N − A)·20/180) = exp(−(N − A)/9)
            let slAt = 1 - oracleWaiting(agents: n, load: erlangs) * exp(-(Double(n) - erlangs) / 9)
            let slBelow = 1 - oracleWaiting(agents: n - 1, load: erlangs) * exp(-(Double(n - 1) - erlangs) / 9)
            #expect(slAt >= 0.8 && slBelow < 0.8)
            #expect(close(requirement.performance.serviceLevel, slAt, 1e-9))
        }
    }
}
