import Primitives

/// The calculator planners use with a forecast of their own (`switchboard staffing erlang`): one
/// interval's traffic, a target, and either a staffing to evaluate or the smallest that meets it.
public struct ErlangCalculation: Sendable, Equatable {
    /// The model used: Erlang A when a patience was given, else Erlang C.
    public var model: StaffingModel
    /// The target's threshold and share.
    public var target: ServiceTarget
    /// The figures of `performance.agents` agents.
    public var performance: QueuePerformance
    /// The continuous requirement (nil when the agents were given).
    public var fractionalAgents: Double?
    /// Whether the agents were given (evaluated) rather than found.
    public var evaluated: Bool
    /// Shrinkage, [0, 0.9].
    public var shrinkage: Double
    /// ⌈N / (1 − shrinkage)⌉.
    public var scheduledAgents: Int

    /// Evaluates `agents`, or finds the smallest staffing meeting `target` when it is nil.
    /// - Throws: `StaffingError` for any input out of range.
    public init(
        load: TrafficLoad, target: ServiceTarget, agents: Int?, patienceSeconds: Double?, shrinkage: Double
    ) throws(StaffingError) {
        let model: StaffingModel = patienceSeconds.map { .erlangA(patienceSeconds: $0) } ?? .erlangC
        if let agents {
            performance = try StaffingRequirement.performance(
                load: load, model: model, agents: agents, thresholdSeconds: target.thresholdSeconds)
            fractionalAgents = nil
        } else {
            let requirement = try StaffingRequirement(load: load, model: model, target: target)
            performance = requirement.performance
            fractionalAgents = requirement.fractionalAgents
        }
        self.model = model
        self.target = target
        self.evaluated = agents != nil
        self.shrinkage = shrinkage
        self.scheduledAgents = try Shrinkage.scheduledAgents(
            productive: Double(performance.agents), shrinkage: shrinkage)
    }

    /// One JSON object with exactly the documented names (`probability_of_abandoning` only under
    /// Erlang A; `average_speed_of_answer_s` null when unbounded).
    public var json: String {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("offered_load")
        writer.number(performance.offeredLoad)
        writer.member("agents", performance.agents)
        writer.key("service_level")
        writer.number(performance.serviceLevel)
        writer.key("connect_service_level")
        writer.number(performance.connectServiceLevel)
        writer.key("probability_of_waiting")
        writer.number(performance.probabilityOfWaiting)
        writer.key("average_speed_of_answer_s")
        if let asa = performance.averageSpeedOfAnswerSeconds { writer.number(asa) } else { writer.null() }
        writer.key("occupancy")
        writer.number(performance.occupancy)
        writer.member("scheduled_agents", scheduledAgents)
        if let abandoning = performance.probabilityOfAbandoning {
            writer.key("probability_of_abandoning")
            writer.number(abandoning)
        }
        writer.endObject()
        return writer.text
    }

    /// The figures as labelled lines for a terminal.
    public var text: String {
        let p = performance
        let x = Self.format(target.thresholdSeconds, digits: 0)
        var lines: [(String, String)] = [
            ("model", model == .erlangC ? "Erlang C (callers never hang up)" : "Erlang A (callers hang up)"),
            ("offered load", "\(Self.format(p.offeredLoad, digits: 3)) Erlangs"),
            (evaluated ? "agents (given)" : "agents needed", "\(p.agents)"),
        ]
        if let fractionalAgents {
            lines.append(("fractional agents", Self.format(fractionalAgents, digits: 2)))
        }
        lines += [
            ("scheduled agents", "\(scheduledAgents) (shrinkage \(Self.percent(shrinkage)), N / (1 − s))"),
            ("service level", "\(Self.percent(p.serviceLevel)) answered within \(x) s of offered"),
            ("Connect service level", "\(Self.percent(p.connectServiceLevel)) removed from queue within \(x) s"),
            ("probability of waiting", Self.percent(p.probabilityOfWaiting)),
            (
                "average speed of answer",
                p.averageSpeedOfAnswerSeconds.map { "\(Self.format($0, digits: 2)) s" } ?? "unbounded (agents ≤ load)"
            ),
            ("occupancy", Self.percent(p.occupancy)),
        ]
        if let abandoning = p.probabilityOfAbandoning {
            lines.append(("probability of abandoning", Self.percent(abandoning)))
        }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 + "\n" }.joined()
    }

    /// `value` with `digits` decimals.
    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        guard digits > 0 else { return String(Int(rounded)) }
        let whole = Int(rounded.rounded(.towardZero))
        var fraction = String(Int((abs(rounded - Double(whole)) * scale).rounded()))
        while fraction.count < digits { fraction = "0" + fraction }
        return (rounded < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    /// Appends `value` with `digits` decimals (at most 4), as ``format(_:digits:)`` writes it,
    /// without building a string: a plan's CSV has hundreds of thousands of them.
    static func format(_ value: Double, digits: Int, into bytes: inout [UInt8]) {
        guard (0...4).contains(digits) else {
            bytes.append(contentsOf: format(value, digits: digits).utf8)
            return
        }
        var scale = 1.0
        var integerScale = 1
        for _ in 0..<digits {
            scale *= 10
            integerScale *= 10
        }
        let scaled = (value * scale).rounded()
        // Beyond 10^11 the quotient's division in `format` may round differently.
        guard scaled.magnitude < 1e11 else {
            bytes.append(contentsOf: format(value, digits: digits).utf8)
            return
        }
        let n = Int(scaled)
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        DecimalDigits.append(n.magnitude / UInt(integerScale), width: 1, to: &bytes)
        guard digits > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        DecimalDigits.append(n.magnitude % UInt(integerScale), width: digits, to: &bytes)
    }

    /// A share as a percentage with two decimals.
    static func percent(_ share: Double) -> String { format(share * 100, digits: 2) + " %" }
}
