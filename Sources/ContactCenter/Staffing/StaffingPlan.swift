import Foundation
import Primitives

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
        public var forecast: StaffingForecast.Interval
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
    public var notes: [String] { forecastNotes + modelNotes }

    private var forecastNotes: [String] = []
    private var modelNotes: [String] = []
    private let model: ModelChoice
    private let target: ServiceTarget
    private let shrinkage: Double
    /// The queues noted as staffed with Erlang C for want of abandons.
    private var erlangCQueues = Set<String>()

    /// Staffs every slot of `forecast`.
    /// - Throws: `StaffingError` for a shrinkage out of range or a slot the model cannot staff.
    public init(
        forecast: StaffingForecast, queues: [String: StaffingQueueHistory], model: ModelChoice, target: ServiceTarget,
        shrinkage: Double
    ) throws(StaffingError) {
        try self.init(model: model, target: target, shrinkage: shrinkage)
        try staff(forecast, queues: queues)
    }

    /// A plan without rows yet, for ``staff(_:queues:)`` to fill part by part.
    /// - Throws: `StaffingError` for a shrinkage out of range.
    public init(model: ModelChoice, target: ServiceTarget, shrinkage: Double) throws(StaffingError) {
        _ = try Shrinkage.scheduled(productive: 0, shrinkage: shrinkage)
        self.model = model
        self.target = target
        self.shrinkage = shrinkage
    }

    /// Staffs every slot of `forecast` (e.g. one queue's) and appends its rows and notes: a plan
    /// staffed queue by queue is the plan of all the queues' forecast staffed at once.
    /// - Returns: the rows appended.
    /// - Throws: `StaffingError` for a slot the model cannot staff.
    @discardableResult
    public mutating func staff(
        _ forecast: StaffingForecast, queues: [String: StaffingQueueHistory]
    ) throws(StaffingError) -> ArraySlice<Row> {
        let first = rows.count
        // Parts' notes once each, as one forecast of all the parts lists them.
        for note in forecast.notes where !forecastNotes.contains(note) { forecastNotes.append(note) }
        for slot in forecast.intervals {
            let history = queues[slot.queue]
            var patience: Double? = nil
            if model == .erlangA {
                patience = history?.patienceSeconds
                if patience == nil, erlangCQueues.insert(slot.queue).inserted {
                    modelNotes.append("queue \(history?.name ?? slot.queue): no abandons in its history: Erlang C")
                }
            }
            rows.append(try Self.row(slot, patience: patience, target: target, shrinkage: shrinkage))
        }
        return rows[first...]
    }

    /// One slot staffed; no requirement when its AHT is unknown.
    private static func row(
        _ slot: StaffingForecast.Interval, patience: Double?, target: ServiceTarget, shrinkage: Double
    ) throws(StaffingError) -> Row {
        guard let aht = slot.averageHandleTimeSeconds else {
            return Row(
                forecast: slot, patienceSeconds: patience, requirement: nil, scheduledAgents: 0,
                scheduledFractionalAgents: 0)
        }
        let load = try TrafficLoad(volume: slot.offered, intervalSeconds: 900, averageHandleTimeSeconds: aht)
        let requirement = try StaffingRequirement(
            load: load, model: patience.map { .erlangA(patienceSeconds: $0) } ?? .erlangC, target: target)
        return Row(
            forecast: slot, patienceSeconds: patience, requirement: requirement,
            scheduledAgents: try Shrinkage.scheduledAgents(
                productive: Double(requirement.agents), shrinkage: shrinkage),
            scheduledFractionalAgents: try Shrinkage.scheduled(
                productive: requirement.fractionalAgents, shrinkage: shrinkage))
    }

    /// Per queue and date: agent-hours needed, from the fractional requirements summed, then rounded up.
    public var agentHours: [(queue: String, date: CivilDate, hours: Int, scheduledHours: Int)] {
        var sums: [QueueDate: (Double, Double)] = [:]
        var order: [QueueDate] = []
        for row in rows {
            let key = QueueDate(queue: row.forecast.queue, date: row.forecast.date)
            if sums[key] == nil {
                order.append(key)
                sums[key] = (0, 0)
            }
            sums[key]!.0 += (row.requirement?.fractionalAgents ?? 0) / 4
            sums[key]!.1 += row.scheduledFractionalAgents / 4
        }
        return order.map { key in
            let (hours, scheduled) = sums[key]!
            return (key.queue, key.date, Int((hours - 1e-9).rounded(.up)), Int((scheduled - 1e-9).rounded(.up)))
        }
    }

    /// A queue's business date: the rows a day's totals sum.
    struct QueueDate: Hashable {
        var queue: String
        var date: CivilDate
    }

    /// The CSV header and one line per row.
    public var csv: String {
        var out = CSVBytes(capacity: rows.count * 120 + 200)
        out.bytes.append(
            contentsOf: ("queue,date,time,day_types,offered,aht_s,patience_s,agents,fractional_agents,scheduled_agents,"
                + "service_level,connect_service_level,occupancy,probability_of_abandoning\n").utf8)
        for row in rows {
            let f = row.forecast
            let p = row.requirement?.performance
            let requirement = row.requirement
            out.bytes.append(contentsOf: Self.csvField(f.queue).utf8)
            out.text(f.date.description)
            out.clock(slot: f.slot)
            out.text(f.dayTypesLabel)
            out.number(f.offered, digits: 2)
            out.number(f.averageHandleTimeSeconds, digits: 1)
            out.number(row.patienceSeconds, digits: 1)
            out.count(requirement?.agents)
            out.number(requirement?.fractionalAgents, digits: 2)
            out.count(row.scheduledAgents)
            out.number(p?.serviceLevel, digits: 4)
            out.number(p?.connectServiceLevel, digits: 4)
            out.number(p?.occupancy, digits: 4)
            out.number(p?.probabilityOfAbandoning, digits: 4)
            out.bytes.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A CSV line's fields after its first, each after a comma, written as bytes.
    private struct CSVBytes {
        var bytes: [UInt8] = []

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        mutating func text(_ value: String) {
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: value.utf8)
        }

        /// `HH:MM` from the business day's midnight, as ``DaySlot/clock``.
        mutating func clock(slot: DaySlot) {
            let minutes = slot.index * DaySlot.minutes
            bytes.append(UInt8(ascii: ","))
            DecimalDigits.append(UInt(minutes / 60), width: 2, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            DecimalDigits.append(UInt(minutes % 60), width: 2, to: &bytes)
        }

        mutating func number(_ value: Double?, digits: Int) {
            bytes.append(UInt8(ascii: ","))
            if let value { ErlangCalculation.format(value, digits: digits, into: &bytes) }
        }

        mutating func count(_ value: Int?) {
            bytes.append(UInt8(ascii: ","))
            if let value { DecimalDigits.append(UInt(value), width: 1, to: &bytes) }
        }
    }

    /// A table for a terminal: one line per slot with traffic, totals per queue and day.
    public func table(queueNames: [String: String]) -> String {
        var out = ""
        var current: QueueDate?
        let hours = Dictionary(
            agentHours.map { (QueueDate(queue: $0.queue, date: $0.date), ($0.hours, $0.scheduledHours)) },
            uniquingKeysWith: { a, _ in a })
        for row in rows {
            let f = row.forecast
            let key = QueueDate(queue: f.queue, date: f.date)
            if key != current {
                current = key
                let (h, s) = hours[key] ?? (0, 0)
                out += "\n\(queueNames[f.queue] ?? f.queue)  \(f.date)  \(f.dayTypesLabel)  "
                out += "agent-hours \(h), scheduled \(s)\n"
                out += "  time   offered    AHT s  agents  (fract.)  sched.  SL ans.  SL Connect  abandon\n"
            }
            guard f.offered > 0 else { continue }
            let p = row.requirement?.performance
            func pad(_ text: String, _ width: Int) -> String {
                String(repeating: " ", count: max(0, width - text.count)) + text
            }
            out += "  " + f.slot.clock
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
