import Foundation
import Testing

@testable import ContactCenter

/// Erlang A against a second oracle that shares none of the product's formulas: the M/M/N+M
/// birth–death chain's stationary distribution computed state by state (in log space, truncated far
/// into the queue), and the tagged caller's journey through the queue solved numerically: the
/// service level by uniformization of its continuous-time chain, its expected wait by backward
/// recursion over the positions.
@Suite("Erlang A: against a birth–death chain solved numerically")
struct ErlangATests {
    struct Oracle {
        var waiting: Double
        var abandoning: Double
        var abandoningFromJourney: Double
        var serviceLevel: Double
        var connectServiceLevel: Double
        var averageSpeedOfAnswer: Double
    }

    static func oracle(agents n: Int, load a: Double, aht: Double, patience: Double, threshold t: Double) -> Oracle {
        let mu = 1 / aht
        let theta = 1 / patience
        let lambda = a * mu
        // Stationary distribution: log π_k up to a state far beyond where the chain lives.
        var logP = [0.0]
        var k = 0
        while true {
            k += 1
            let rate = Double(min(k, n)) * mu + Double(max(0, k - n)) * theta
            logP.append(logP[k - 1] + log(lambda / rate))
            if k > n + 20, logP[k] < logP.max()! - 60, lambda < rate { break }
        }
        let top = logP.max()!
        let weights = logP.map { exp($0 - top) }
        let total = weights.reduce(0, +)
        let pi = weights.map { $0 / total }
        let waiting = pi[n...].reduce(0, +)
        let abandonRate = pi.indices.filter { $0 > n }.reduce(0.0) { $0 + pi[$1] * Double($1 - n) * theta }
        // The tagged caller who finds j callers ahead (state n + j).
        let ahead = pi.count - n
        let start = (0..<ahead).map { pi[n + $0] }
        // Backward recursion: s_i = P(answered | i ahead), g_i = E[wait · 1{answered} | i ahead].
        var s = [Double](repeating: 0, count: ahead)
        var g = [Double](repeating: 0, count: ahead)
        for i in 0..<ahead {
            let down = Double(n) * mu + Double(i) * theta
            let out = down + theta
            let sBelow = i == 0 ? 1 : s[i - 1]
            let gBelow = i == 0 ? 0 : g[i - 1]
            s[i] = down / out * sBelow
            g[i] = s[i] / out + down / out * gBelow
        }
        let answeredAfterWait = zip(start, s).reduce(0) { $0 + $1.0 * $1.1 }
        let waitOfAnswered = zip(start, g).reduce(0) { $0 + $1.0 * $1.1 }
        // Uniformization: the distribution over positions, answered, hung up, after time t.
        let uniform = Double(n) * mu + Double(ahead) * theta + theta
        var state = start
        var answered = 0.0
        var hungUp = 0.0
        var answeredByT = 0.0
        var hungUpByT = 0.0
        let m = uniform * t
        var logPoisson = -m
        var step = 0
        while true {
            let weight = exp(logPoisson)
            answeredByT += weight * answered
            hungUpByT += weight * hungUp
            if Double(step) > m + 10 * m.squareRoot() + 50 { break }
            var next = [Double](repeating: 0, count: ahead)
            for i in 0..<ahead where state[i] > 0 {
                let down = Double(n) * mu + Double(i) * theta
                let moveDown = state[i] * down / uniform
                let leave = state[i] * theta / uniform
                next[i] += state[i] - moveDown - leave
                if i == 0 { answered += moveDown } else { next[i - 1] += moveDown }
                hungUp += leave
            }
            state = next
            step += 1
            logPoisson += log(m) - log(Double(step))
        }
        // Remaining Poisson mass beyond the loop carries the last values (negligible by then).
        return Oracle(
            waiting: waiting, abandoning: abandonRate / lambda, abandoningFromJourney: waiting - answeredAfterWait,
            serviceLevel: (1 - waiting) + answeredByT,
            connectServiceLevel: (1 - waiting) + answeredByT + hungUpByT,
            averageSpeedOfAnswer: waitOfAnswered / (1 - waiting + answeredAfterWait))
    }

    static let cases: [(agents: Int, load: Double, aht: Double, patience: Double, threshold: Double)] = [
        (14, 10, 180, 120, 20),  // pyworkforce's traffic, callers patient for 2 minutes
        (8, 10, 180, 60, 20),  // overloaded: N < A, stable only because callers hang up
        (1, 0.5, 300, 30, 10),  // one agent
        (40, 33.3333, 120, 240, 20),  // call-center-tools' traffic
        (3, 12, 200, 45, 30),  // heavy overload: most callers hang up
        (120, 110, 180, 600, 20),  // a larger center, patient callers
        (1030, 1000, 180, 180, 20),  // A = 1,000
    ]

    @Test("P(wait), P(abandon), both service levels and ASA agree with the chain", arguments: 0..<7)
    func againstChain(index: Int) throws {
        let c = Self.cases[index]
        let o = Self.oracle(agents: c.agents, load: c.load, aht: c.aht, patience: c.patience, threshold: c.threshold)
        let p = ErlangA.performance(
            agents: c.agents, load: c.load, handleTimeSeconds: c.aht, patienceSeconds: c.patience,
            thresholdSeconds: c.threshold)
        #expect(abs(o.abandoning - o.abandoningFromJourney) < 1e-9)  // the oracle agrees with itself
        #expect(abs(p.probabilityOfWaiting - o.waiting) < 1e-9)
        #expect(abs(p.probabilityOfAbandoning! - o.abandoning) < 1e-9)
        #expect(abs(p.serviceLevel - o.serviceLevel) < 1e-8)
        #expect(abs(p.connectServiceLevel - o.connectServiceLevel) < 1e-8)
        #expect(abs(p.averageSpeedOfAnswerSeconds! - o.averageSpeedOfAnswer) < 1e-6)
        #expect(abs(p.occupancy - c.load * (1 - o.abandoning) / Double(c.agents)) < 1e-9)
        #expect(p.connectServiceLevel >= p.serviceLevel)
    }

    @Test("Erlang A needs no more agents than Erlang C when callers abandon, and tends to it as patience grows")
    func fewerThanErlangC() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        let target = try ServiceTarget(parsing: "80/20")
        let c = try StaffingRequirement(load: load, model: .erlangC, target: target)
        let a = try StaffingRequirement(load: load, model: .erlangA(patienceSeconds: 60), target: target)
        #expect(a.agents <= c.agents)
        let patient = try StaffingRequirement(load: load, model: .erlangA(patienceSeconds: 1e7), target: target)
        #expect(patient.agents == c.agents)
        #expect(abs(patient.performance.serviceLevel - c.performance.serviceLevel) < 1e-5)
    }

    @Test("large overloaded loads stay finite: A = 1,000 with 500 agents")
    func overloadFinite() {
        let p = ErlangA.performance(
            agents: 500, load: 1000, handleTimeSeconds: 180, patienceSeconds: 60, thresholdSeconds: 20)
        for value in [p.serviceLevel, p.connectServiceLevel, p.probabilityOfWaiting, p.occupancy] {
            #expect(value.isFinite && value >= 0 && value <= 1)
        }
        #expect(p.probabilityOfAbandoning! > 0.45)
        #expect(p.averageSpeedOfAnswerSeconds!.isFinite)
    }
}
