import Foundation

/// Erlang A (M/M/N+M, Palm's queue): Erlang C's callers, who also hang up after an exponentially
/// distributed patience with mean 1/θ. Stable for any load, N ≤ A included.
///
/// With x = Nμ/θ, y = λ/θ, E = B(N, A) and the series S(a, w) = Σₖ wᵏ / (a(a+1)…(a+k))
/// (Mandelbaum & Zeltyn, "The Palm/Erlang-A queue, with applications to call centers", 2007):
/// - P(wait) = 𝒜E / (1 + (𝒜 − 1)E) with 𝒜 = x·S(x, y);
/// - a waiting caller's virtual wait V (the wait were they infinitely patient) satisfies
///   θV = −log U with U ~ Beta(x, j + 1) for j callers ahead, which mixed over the stationary
///   queue gives, with z = e^(−θX):
///   P(V > X | wait) = zˣ e^(y(1−z)) S(x, yz) / S(x, y),
///   P(answered within X | wait) = [S(x+1, y) − zˣ⁺¹ e^(y(1−z)) S(x+1, yz)] / S(x, y),
///   P(answered | wait) = S(x+1, y) / S(x, y),
///   E[V; answered | wait] = (1/θ) Σₖ tₖ·Hₖ / S(x, y) with tₖ the terms of S(x+1, y) and
///   Hₖ = Σᵢ₌₀..ₖ 1/(x+1+i);
/// - Connect's service level: 1 − P(wait)·P(V > X | wait)·e^(−θX) (removed: answered or hung up).
///
/// Every series is summed in log space with a running maximum: overload (y ≫ x) makes its terms
/// grow to e^(thousands) before they fall, and nothing here forms A^N or N!.
public enum ErlangA {
    /// Mean patience beyond this many handle times is Erlang C (the series would need ~y terms).
    static let erlangCPatienceRatio = 1e6

    /// The figures of N agents.
    /// - Parameters:
    ///   - agents: N, 0 or more.
    ///   - load: A, Erlangs.
    ///   - handleTimeSeconds: AHT = 1/μ.
    ///   - patienceSeconds: mean patience 1/θ.
    ///   - thresholdSeconds: X.
    public static func performance(
        agents: Int, load: Double, handleTimeSeconds: Double, patienceSeconds: Double, thresholdSeconds: Double
    ) -> QueuePerformance {
        guard load > 0 else { return .idle(agents: agents, abandonment: true) }
        let theta = 1 / patienceSeconds
        guard agents > 0 else {
            // Nobody answers: every caller hangs up, after Exp(θ).
            return QueuePerformance(
                offeredLoad: load, agents: 0, serviceLevel: 0, connectServiceLevel: -expm1(-theta * thresholdSeconds),
                probabilityOfWaiting: 1, averageSpeedOfAnswerSeconds: nil, occupancy: 0, probabilityOfAbandoning: 1)
        }
        guard patienceSeconds / handleTimeSeconds < erlangCPatienceRatio else {
            var performance = ErlangC.performance(
                agents: agents, load: load, handleTimeSeconds: handleTimeSeconds, thresholdSeconds: thresholdSeconds)
            performance.probabilityOfAbandoning = 0
            return performance
        }
        let n = Double(agents)
        let x = n * patienceSeconds / handleTimeSeconds
        let y = load * patienceSeconds / handleTimeSeconds
        let e = ErlangB.blocking(agents: agents, load: load)
        let logS = LogSeries.sum(a: x, w: y).logSum
        let logA = log(x) + logS
        // P(wait) = E / (E + (1 − E)/𝒜), 1/𝒜 may underflow to 0 in overload (then P(wait) = 1).
        let waiting = e / (e + (1 - e) * exp(-logA))
        let answeredSeries = LogSeries.sum(a: x + 1, w: y, weighted: true)
        let answeredIfWaiting = min(1, exp(answeredSeries.logSum - logS))
        let abandoning = waiting * (1 - answeredIfWaiting)

        let thetaX = theta * thresholdSeconds
        let z = exp(-thetaX)
        let spread = y * -expm1(-thetaX)  // y(1 − z)
        let logLateWait = -x * thetaX + spread + LogSeries.sum(a: x, w: y * z).logSum - logS
        let lateIfWaiting = min(1, exp(logLateWait))
        let logLateAnswered = -(x + 1) * thetaX + spread + LogSeries.sum(a: x + 1, w: y * z).logSum - logS
        let answeredInTimeIfWaiting = max(0, answeredIfWaiting - exp(logLateAnswered))

        let answered = 1 - abandoning
        let waitOfAnswered = waiting * patienceSeconds * exp(answeredSeries.logWeightedSum - logS)
        return QueuePerformance(
            offeredLoad: load, agents: agents,
            serviceLevel: min(1, (1 - waiting) + waiting * answeredInTimeIfWaiting),
            connectServiceLevel: 1 - waiting * lateIfWaiting * z,
            probabilityOfWaiting: waiting,
            averageSpeedOfAnswerSeconds: answered > 0 ? waitOfAnswered / answered : nil,
            occupancy: min(1, load * answered / n),
            probabilityOfAbandoning: abandoning)
    }
}

/// S(a, w) = Σₖ wᵏ / (a(a+1)…(a+k)) in log space, and optionally Σₖ tₖ·Hₖ with
/// Hₖ = Σᵢ₌₀..ₖ 1/(a+i).
enum LogSeries {
    /// log S, and log of the weighted sum (−∞ unless asked for).
    struct Result {
        var logSum: Double
        var logWeightedSum: Double
    }

    static func sum(a: Double, w: Double, weighted: Bool = false) -> Result {
        var logTerm = -log(a)
        var harmonic = 1 / a
        // Running maximum: the sums are kept scaled by e^(−scale).
        var scale = logTerm
        var sum = 1.0
        var weightedSum = harmonic
        guard w > 0 else {
            return Result(logSum: logTerm, logWeightedSum: weighted ? logTerm + log(harmonic) : -.infinity)
        }
        let logW = log(w)
        var k = 0.0
        // Terms grow while a + k < w, then fall at least geometrically.
        while true {
            k += 1
            logTerm += logW - log(a + k)
            if weighted { harmonic += 1 / (a + k) }
            if logTerm > scale {
                let shrink = exp(scale - logTerm)
                sum *= shrink
                weightedSum *= shrink
                scale = logTerm
            }
            let relative = exp(logTerm - scale)
            sum += relative
            if weighted { weightedSum += relative * harmonic }
            if a + k > w, relative < 1e-17 * sum { break }
        }
        return Result(logSum: scale + log(sum), logWeightedSum: weighted ? scale + log(weightedSum) : -.infinity)
    }
}
