import Foundation

/// Erlang C (M/M/N): Poisson arrivals, exponential handle times, N agents, callers who never hang up.
///
/// C = B / (1 − ρ(1 − B)) from Erlang B's recursion; answered within X = 1 − C·e^(−(N − A)·X / AHT);
/// ASA = C·AHT / (N − A) over all contacts. For N ≤ A the queue grows without bound: C = 1,
/// service level 0, no finite ASA.
public enum ErlangC {
    /// The figures of N agents.
    /// - Parameters:
    ///   - agents: N, 0 or more.
    ///   - load: A, Erlangs.
    ///   - handleTimeSeconds: AHT.
    ///   - thresholdSeconds: X.
    public static func performance(
        agents: Int, load: Double, handleTimeSeconds: Double, thresholdSeconds: Double
    ) -> QueuePerformance {
        performance(
            agents: agents, load: load, blocking: ErlangB.blocking(agents: agents, load: load),
            handleTimeSeconds: handleTimeSeconds, thresholdSeconds: thresholdSeconds)
    }

    /// The figures of N agents given B(N, A) (the search steps B instead of recomputing it).
    static func performance(
        agents: Int, load: Double, blocking b: Double, handleTimeSeconds: Double, thresholdSeconds: Double
    ) -> QueuePerformance {
        guard load > 0 else { return .idle(agents: agents, abandonment: false) }
        let n = Double(agents)
        guard n > load else {
            return QueuePerformance(
                offeredLoad: load, agents: agents, serviceLevel: 0, connectServiceLevel: 0, probabilityOfWaiting: 1,
                averageSpeedOfAnswerSeconds: nil, occupancy: agents == 0 ? 0 : 1, probabilityOfAbandoning: nil)
        }
        let rho = load / n
        let waiting = min(1, b / (1 - rho * (1 - b)))
        let serviceLevel = 1 - waiting * exp(-(n - load) * thresholdSeconds / handleTimeSeconds)
        return QueuePerformance(
            offeredLoad: load, agents: agents, serviceLevel: serviceLevel, connectServiceLevel: serviceLevel,
            probabilityOfWaiting: waiting, averageSpeedOfAnswerSeconds: waiting * handleTimeSeconds / (n - load),
            occupancy: rho, probabilityOfAbandoning: nil)
    }
}
