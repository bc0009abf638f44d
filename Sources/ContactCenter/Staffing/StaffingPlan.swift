import Foundation

/// Agents per queue and 15-minute slot for a forecast, a model and a target: what
/// `switchboard staffing plan` prints and stores.
public struct StaffingPlan: Sendable {
    /// Which model the planner asked for.
    public enum ModelChoice: String, Sendable, CaseIterable {
        /// Erlang A with each queue's patience from its history (Erlang C for a queue without abandons).
        case erlangA = "erlang-a"
        /// Erlang C: callers never hang up (overstates agents when they do).
        case erlangC = "erlang-c"
    }

    /// One queue's plan for one slot.
    public struct Row: Sendable, Equatable {
        public var forecast: StaffingForecast.Slot
        /// The patience used (nil: Erlang C).
        public var patienceSeconds: Double?
        /// The requirement (nil when the AHT is unknown).
        public var requirement: StaffingRequirement?
        /// Agents to schedule, whole: ⌈N / (1 − s)⌉.
        public var scheduledAgents: Int
        /// Agents to schedule, fractional: fractional N / (1 − s).
        public var scheduledFractionalAgents: Double
    }

    /// The rows, by queue, date, slot.
    public private(set) var rows: [Row] = []
    /// The forecast's notes and the model's.
    public private(set) var notes: [String]

    /// Staffs every slot of `forecast`.
    /// - Throws: `StaffingError` for a shrinkage out of range.
    public init(
        forecast: StaffingForecast, queues: [String: StaffingQueueHistory], model: ModelChoice, target: ServiceTarget,
        shrinkage: Double
    ) throws(StaffingError) {
        _ = try Shrinkage.scheduled(productive: 0, shrinkage: shrinkage)
        notes = forecast.notes
        var erlangCQueues = Set<String>()
        for slot in forecast.slots {
            let history = queues[slot.queue]
            var patience: Double? = nil
            if model == .erlangA {
                patience = history?.patienceSeconds
                if patience == nil, erlangCQueues.insert(slot.queue).inserted {
                    notes.append("queue \(history?.name ?? slot.queue): no abandons in its history: Erlang C")
                }
            }
            guard let aht = slot.averageHandleTimeSeconds else {
                rows.append(
                    Row(
                        forecast: slot, patienceSeconds: patience, requirement: nil, scheduledAgents: 0,
                        scheduledFractionalAgents: 0))
                continue
            }
            let load = try TrafficLoad(volume: slot.offered, intervalSeconds: 900, averageHandleTimeSeconds: aht)
            let requirement = try StaffingRequirement(
                load: load, model: patience.map { .erlangA(patienceSeconds: $0) } ?? .erlangC, target: target)
            rows.append(
                Row(
                    forecast: slot, patienceSeconds: patience, requirement: requirement,
                    scheduledAgents: try Shrinkage.scheduledAgents(
                        productive: Double(requirement.agents), shrinkage: shrinkage),
                    scheduledFractionalAgents: try Shrinkage.scheduled(
                        productive: requirement.fractionalAgents, shrinkage: shrinkage)))
        }
    }

    /// Per queue and date: agent-hours needed, from the fractional requirements summed, then rounded up.
    public var agentHours: [(queue: String, date: String, hours: Int, scheduledHours: Int)] {
        var sums: [String: (String, String, Double, Double)] = [:]
        var order: [String] = []
        for row in rows {
            let key = row.forecast.queue + "\u{0}" + row.forecast.date
            if sums[key] == nil {
                order.append(key)
                sums[key] = (row.forecast.queue, row.forecast.date, 0, 0)
            }
            sums[key]!.2 += (row.requirement?.fractionalAgents ?? 0) / 4
            sums[key]!.3 += row.scheduledFractionalAgents / 4
        }
        return order.map { key in
            let (queue, date, hours, scheduled) = sums[key]!
            return (queue, date, Int((hours - 1e-9).rounded(.up)), Int((scheduled - 1e-9).rounded(.up)))
        }
    }

    /// The CSV header and one line per row.
    public var csv: String {
        var lines = [
            "queue,date,time,day_types,offered,aht_s,patience_s,agents,fractional_agents,scheduled_agents,"
                + "service_level,connect_service_level,occupancy,probability_of_abandoning"
        ]
        for row in rows {
            let f = row.forecast
            let p = row.requirement?.performance
            let requirement = row.requirement
            func share(_ value: Double?) -> String {
                value.map { ErlangCalculation.format($0, digits: 4) } ?? ""
            }
            var fields: [String] = [Self.csvField(f.queue), f.date, StaffingForecast.clock(slot: f.slot), f.dayTypes]
            fields.append(ErlangCalculation.format(f.offered, digits: 2))
            fields.append(f.averageHandleTimeSeconds.map { ErlangCalculation.format($0, digits: 1) } ?? "")
            fields.append(row.patienceSeconds.map { ErlangCalculation.format($0, digits: 1) } ?? "")
            fields.append(requirement.map { String($0.agents) } ?? "")
            fields.append(requirement.map { ErlangCalculation.format($0.fractionalAgents, digits: 2) } ?? "")
            fields.append(String(row.scheduledAgents))
            fields.append(share(p?.serviceLevel))
            fields.append(share(p?.connectServiceLevel))
            fields.append(share(p?.occupancy))
            fields.append(share(p?.probabilityOfAbandoning))
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table for a terminal: one line per slot with traffic, totals per queue and day.
    public func table(queueNames: [String: String]) -> String {
        var out = ""
        var current = ""
        let hours = Dictionary(
            agentHours.map { ($0.queue + "\u{0}" + $0.date, ($0.hours, $0.scheduledHours)) },
            uniquingKeysWith: { a, _ in a })
        for row in rows {
            let f = row.forecast
            let key = f.queue + "\u{0}" + f.date
            if key != current {
                current = key
                let (h, s) = hours[key] ?? (0, 0)
                out += "\n\(queueNames[f.queue] ?? f.queue)  \(f.date)  \(f.dayTypes)  "
                out += "agent-hours \(h), scheduled \(s)\n"
                out += "  time   offered    AHT s  agents  (fract.)  sched.  SL ans.  SL Connect  abandon\n"
            }
            guard f.offered > 0 else { continue }
            let p = row.requirement?.performance
            func pad(_ text: String, _ width: Int) -> String {
                String(repeating: " ", count: max(0, width - text.count)) + text
            }
            out += "  " + StaffingForecast.clock(slot: f.slot)
            out += pad(ErlangCalculation.format(f.offered, digits: 1), 10)
            out += pad(f.averageHandleTimeSeconds.map { ErlangCalculation.format($0, digits: 0) } ?? "-", 9)
            out += pad(row.requirement.map { "\($0.agents)" } ?? "-", 8)
            out += pad(row.requirement.map { ErlangCalculation.format($0.fractionalAgents, digits: 2) } ?? "-", 10)
            out += pad("\(row.scheduledAgents)", 8)
            out += pad(p.map { ErlangCalculation.percent($0.serviceLevel) } ?? "-", 9)
            out += pad(p.map { ErlangCalculation.percent($0.connectServiceLevel) } ?? "-", 12)
            out += pad(p?.probabilityOfAbandoning.map { ErlangCalculation.percent($0) } ?? "-", 9)
            out += "\n"
        }
        return out
    }

    static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
