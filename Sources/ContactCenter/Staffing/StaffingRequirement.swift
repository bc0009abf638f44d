/// The agents a queue needs in one interval to meet a `ServiceTarget`, whole and fractional.
///
/// `agents` is the smallest whole N that meets every target; `fractionalAgents` is the continuous
/// requirement within (N − 1, N]: the service-level crossing interpolated linearly between N − 1
/// and N, or A·(1 − P(abandon)) / max occupancy when the cap binds. Sum fractional figures over
/// intervals or queues and round the total, never the parts (rounding each part inflates totals).
public struct StaffingRequirement: Sendable, Equatable {
    /// The smallest whole number of agents on the queue meeting every target (0 with no volume).
    public var agents: Int
    /// The continuous requirement, within (agents − 1, agents].
    public var fractionalAgents: Double
    /// The figures with `agents` on the queue.
    public var performance: QueuePerformance

    /// The most agents the search tries on one queue in one interval. Each try costs an Erlang
    /// formula over that many agents, so this bounds the work of a requirement (about 30 tries).
    public static let maximumAgents = 10_000

    /// The requirement for a load under a model and target.
    /// - Throws: `StaffingError.patienceNotPositive` for an Erlang A patience ≤ 0,
    ///   `.loadBeyondSearch` for a load over ``maximumAgents`` Erlangs, `.targetUnreachable` when
    ///   ``maximumAgents`` do not meet the target.
    public init(load: TrafficLoad, model: StaffingModel, target: ServiceTarget) throws(StaffingError) {
        let a = load.offeredLoad
        let aht = load.averageHandleTimeSeconds
        let evaluate = try Self.evaluator(model: model, load: a, handleTimeSeconds: aht, target: target)
        guard a > 0 else {
            self.init(agents: 0, fractionalAgents: 0, performance: evaluate(0))
            return
        }
        guard a < Double(Self.maximumAgents) else { throw .loadBeyondSearch(a, maximumAgents: Self.maximumAgents) }
        func meets(_ p: QueuePerformance) -> Bool {
            guard p.serviceLevel >= target.serviceLevel else { return false }
            if let asa = target.averageSpeedOfAnswerSeconds {
                guard let predicted = p.averageSpeedOfAnswerSeconds, predicted <= asa else { return false }
            }
            if let cap = target.maximumOccupancy, p.occupancy > cap + 1e-12 { return false }
            return true
        }
        // Every figure improves with N: double up to a staffing that meets the target, then bisect.
        var low = 0  // fails (no agents never meets a target above 0 %)
        var high = max(1, Int(a.rounded(.up)))
        var best = evaluate(high)
        while !meets(best) {
            guard high < Self.maximumAgents else { throw .targetUnreachable(maximumAgents: Self.maximumAgents) }
            low = high
            high = min(high * 2, Self.maximumAgents)
            best = evaluate(high)
        }
        while high - low > 1 {
            let middle = (low + high) / 2
            let p = evaluate(middle)
            if meets(p) {
                high = middle
                best = p
            } else {
                low = middle
            }
        }
        let below = evaluate(high - 1)
        self.init(
            agents: high, fractionalAgents: Self.fractional(at: best, below: below, target: target),
            performance: best)
    }

    /// A requirement as given.
    public init(agents: Int, fractionalAgents: Double, performance: QueuePerformance) {
        self.agents = agents
        self.fractionalAgents = fractionalAgents
        self.performance = performance
    }

    /// The figures of a given number of agents under a model.
    /// - Throws: `StaffingError` for an agent count outside 0...``maximumAgents`` or an Erlang A
    ///   patience ≤ 0.
    public static func performance(
        load: TrafficLoad, model: StaffingModel, agents: Int, thresholdSeconds: Double
    ) throws(StaffingError) -> QueuePerformance {
        guard agents >= 0 else { throw .agentsNegative(agents) }
        guard agents <= maximumAgents else { throw .agentsOutOfRange(Double(agents)) }
        guard thresholdSeconds.isFinite, thresholdSeconds > 0 else { throw .thresholdNotPositive(thresholdSeconds) }
        let target = try ServiceTarget(serviceLevel: 0.5, thresholdSeconds: thresholdSeconds)
        let evaluate = try evaluator(
            model: model, load: load.offeredLoad, handleTimeSeconds: load.averageHandleTimeSeconds, target: target)
        return evaluate(agents)
    }

    private static func evaluator(
        model: StaffingModel, load: Double, handleTimeSeconds: Double, target: ServiceTarget
    ) throws(StaffingError) -> (Int) -> QueuePerformance {
        switch model {
        case .erlangC:
            return { n in
                ErlangC.performance(
                    agents: n, load: load, handleTimeSeconds: handleTimeSeconds,
                    thresholdSeconds: target.thresholdSeconds)
            }
        case .erlangA(let patience):
            guard patience.isFinite, patience > 0 else { throw .patienceNotPositive(patience) }
            return { n in
                ErlangA.performance(
                    agents: n, load: load, handleTimeSeconds: handleTimeSeconds, patienceSeconds: patience,
                    thresholdSeconds: target.thresholdSeconds)
            }
        }
    }

    private static func fractional(
        at met: QueuePerformance, below: QueuePerformance, target: ServiceTarget
    ) -> Double {
        let n = Double(met.agents)
        var required = n - 1
        let gain = met.serviceLevel - below.serviceLevel
        if gain > 0 {
            required = max(required, n - 1 + (target.serviceLevel - below.serviceLevel) / gain)
        }
        if let cap = target.maximumOccupancy {
            let busy = met.offeredLoad * (1 - (met.probabilityOfAbandoning ?? 0))
            required = max(required, busy / cap)
        }
        if let asa = target.averageSpeedOfAnswerSeconds, let at = met.averageSpeedOfAnswerSeconds,
            let before = below.averageSpeedOfAnswerSeconds, before > at
        {
            required = max(required, n - 1 + (before - asa) / (before - at))
        } else if target.averageSpeedOfAnswerSeconds != nil, below.averageSpeedOfAnswerSeconds == nil {
            required = max(required, n - 1)
        }
        return min(n, max(n - 1, required))
    }
}
