import Primitives

/// A business day's reforecast for every queue asked about, as `switchboard staffing intraday`,
/// `GET /v1/staffing/intraday`, the console's chart and the MCP `staffing_outlook` tool give it.
public struct IntradayOutlook: Sendable {
    /// Where the plan's forecast came from.
    public enum PlanSource: Sendable, Equatable {
        /// The latest plan stored for the date (`staffing_plan`).
        case stored(planId: Int)
        /// Made from the history before the date (no plan was stored for it).
        case history
    }

    /// Where the staffed agents came from.
    public enum StaffedSource: String, Sendable {
        /// The live floor's agents now (``StaffedNow``), held for the rest of the day.
        case floor
        /// The plan's agents per slot: what it asked to schedule.
        case plan
    }

    /// The business date.
    public var date: CivilDate
    /// The instant the reforecast stands at, seconds since 1970.
    public var instant: Double
    /// Minutes after the business date's midnight.
    public var minute: Double
    public var planSource: PlanSource
    public var staffedSource: StaffedSource
    public var target: ServiceTarget
    public var parameters: IntradayParameters
    public var changes: [IntradayChange]
    /// Per queue, by id.
    public var queues: [IntradayReforecast]
    public var queueNames: [String: String]
    /// The forecast's notes.
    public var notes: [String]

    public init(
        date: CivilDate, instant: Double, minute: Double, planSource: PlanSource, staffedSource: StaffedSource,
        target: ServiceTarget, parameters: IntradayParameters, changes: [IntradayChange],
        queues: [IntradayReforecast], queueNames: [String: String], notes: [String]
    ) {
        self.date = date
        self.instant = instant
        self.minute = minute
        self.planSource = planSource
        self.staffedSource = staffedSource
        self.target = target
        self.parameters = parameters
        self.changes = changes
        self.queues = queues
        self.queueNames = queueNames
        self.notes = notes
    }

    /// The slot the instant falls in.
    public var currentSlot: DaySlot { DaySlot(Int((minute / Double(DaySlot.minutes)).rounded(.down))) }

    /// The outlook as one JSON object (docs/staffing.md, "Intraday"; openapi.yaml's
    /// `IntradayOutlook`). Figures the model cannot give are null.
    public func json() -> String {
        var writer = JSONWriter(capacity: 4096 + queues.count * 120 * 400)
        func optional(_ name: String, _ value: Double?) {
            writer.key(name)
            if let value, value.isFinite { writer.number(Self.rounded(value)) } else { writer.null() }
        }
        writer.beginObject()
        writer.member("date", date.description)
        writer.key("instant")
        writer.number(instant)
        optional("minute", minute)
        writer.member("now_slot", currentSlot.index)
        writer.key("plan")
        writer.beginObject()
        switch planSource {
        case .stored(let id):
            writer.member("source", "stored")
            writer.member("plan_id", id)
        case .history:
            writer.member("source", "history")
            writer.nullMember("plan_id")
        }
        writer.endObject()
        writer.member("staffed_from", staffedSource.rawValue)
        writer.key("target")
        writer.beginObject()
        optional("service_level", target.serviceLevel)
        optional("threshold_s", target.thresholdSeconds)
        writer.endObject()
        writer.key("parameters")
        writer.beginObject()
        optional("volume_prior_contacts", parameters.volumePriorContacts)
        optional("store_prior_contacts", parameters.storePriorContacts)
        optional("half_life_minutes", parameters.halfLifeMinutes)
        optional("handle_time_prior_contacts", parameters.handleTimePriorContacts)
        writer.endObject()
        writer.key("changes")
        writer.beginArray()
        for change in changes { writer.string(change.description) }
        writer.endArray()
        writer.key("notes")
        writer.beginArray()
        for note in notes { writer.string(note) }
        writer.endArray()
        writer.key("queues")
        writer.beginArray()
        for queue in queues {
            writer.beginObject()
            writer.member("queue", queue.queue)
            writer.member("queue_name", queueNames[queue.queue] ?? queue.queue)
            optional("volume_ratio", queue.volumeRatio)
            optional("handle_time_ratio", queue.handleTimeRatio)
            optional("shortfall_next_hour", queue.shortfallNextHour)
            writer.key("misses_target_next_hour")
            writer.bool(queue.missesTargetNextHour(target))
            writer.key("slots")
            writer.beginArray()
            for slot in queue.slots {
                writer.beginObject()
                writer.member("slot", slot.slot.index)
                writer.member("start", slot.slot.clock)
                writer.member("state", slot.state.rawValue)
                optional("plan_offered", slot.plan.offered)
                optional("plan_aht_s", slot.plan.averageHandleTimeSeconds)
                writer.member("plan_agents", slot.plan.agents)
                optional("actual_offered", slot.actual?.offered)
                optional("actual_answered", slot.actual?.answered)
                optional("actual_abandoned", slot.actual?.abandoned)
                optional(
                    "actual_aht_s",
                    slot.actual.flatMap { $0.handled > 0 ? $0.handleSeconds / $0.handled : nil })
                optional("reforecast_offered", slot.reforecastOffered)
                optional("reforecast_aht_s", slot.reforecastAverageHandleTimeSeconds)
                writer.member("agents_needed", slot.agentsNeeded)
                optional("fractional_agents_needed", slot.fractionalAgentsNeeded)
                optional("staffed", slot.staffed)
                optional("service_level", slot.predicted?.serviceLevel)
                optional("asa_s", slot.predicted?.averageSpeedOfAnswerSeconds)
                optional("abandonment", slot.predicted?.abandonment)
                writer.key("what_if")
                if let staffed = slot.whatIfStaffed {
                    writer.beginObject()
                    optional("staffed", staffed)
                    optional("service_level", slot.whatIf?.serviceLevel)
                    optional("asa_s", slot.whatIf?.averageSpeedOfAnswerSeconds)
                    optional("abandonment", slot.whatIf?.abandonment)
                    writer.endObject()
                } else {
                    writer.null()
                }
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The CSV header and one line per queue and slot.
    public var csv: String {
        var out =
            "queue,date,time,state,plan_offered,actual_offered,reforecast_offered,plan_aht_s,reforecast_aht_s,"
            + "plan_agents,agents_needed,staffed,service_level,asa_s,abandonment,"
            + "what_if_staffed,what_if_service_level,what_if_asa_s,what_if_abandonment\n"
        func f(_ value: Double?, _ digits: Int) -> String {
            guard let value, value.isFinite else { return "" }
            return ErlangCalculation.format(value, digits: digits)
        }
        for queue in queues {
            let name = StaffingPlan.csvField(queueNames[queue.queue] ?? queue.queue)
            for slot in queue.slots {
                let fields = [
                    name, date.description, slot.slot.clock, slot.state.rawValue, f(slot.plan.offered, 2),
                    f(slot.actual?.offered, 0), f(slot.reforecastOffered, 2), f(slot.plan.averageHandleTimeSeconds, 1),
                    f(slot.reforecastAverageHandleTimeSeconds, 1), slot.plan.agents.map(String.init) ?? "",
                    slot.agentsNeeded.map(String.init) ?? "", f(slot.staffed, 2), f(slot.predicted?.serviceLevel, 4),
                    f(slot.predicted?.averageSpeedOfAnswerSeconds, 1), f(slot.predicted?.abandonment, 4),
                    f(slot.whatIfStaffed, 2), f(slot.whatIf?.serviceLevel, 4),
                    f(slot.whatIf?.averageSpeedOfAnswerSeconds, 1), f(slot.whatIf?.abandonment, 4),
                ]
                out += fields.joined(separator: ",") + "\n"
            }
        }
        return out
    }

    /// A table for a terminal: per queue its level and shortfall, then its slots from the
    /// current one on (with a what-if, every slot the change touches).
    public var table: String {
        var out = "\(date) at \(Self.clock(minute)), plan: "
        switch planSource {
        case .stored(let id): out += "stored plan \(id)"
        case .history: out += "forecast from the history (no stored plan)"
        }
        out += "; staffed: \(staffedSource == .floor ? "the floor now" : "as planned")\n"
        for change in changes { out += "what-if: \(change)\n" }
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func f(_ value: Double?, _ digits: Int) -> String {
            value.map { ErlangCalculation.format($0, digits: digits) } ?? "-"
        }
        func percent(_ value: Double?) -> String { value.map { ErlangCalculation.percent($0) } ?? "-" }
        for queue in queues {
            out += "\n\(queueNames[queue.queue] ?? queue.queue)  level ×\(f(queue.volumeRatio, 2))"
            out += "  AHT ×\(f(queue.handleTimeRatio, 2))"
            if let shortfall = queue.shortfallNextHour { out += "  short next hour: \(f(shortfall, 1))" }
            if queue.missesTargetNextHour(target) { out += "  MISSES TARGET" }
            out += "\n  time   plan  actual  refc.  needed  staffed       SL  ASA s  abandon"
            if !changes.isEmpty { out += "  | what-if staffed       SL  ASA s  abandon" }
            out += "\n"
            for slot in queue.slots where slot.state != .closed || slot.whatIfStaffed != nil {
                guard slot.plan.offered > 0 || slot.reforecastOffered > 0 || slot.whatIfStaffed != nil else { continue }
                out += "  " + slot.slot.clock + pad(f(slot.plan.offered, 1), 7)
                out += pad(f(slot.actual?.offered, 0), 8) + pad(f(slot.reforecastOffered, 1), 7)
                out += pad(slot.agentsNeeded.map(String.init) ?? "-", 8) + pad(f(slot.staffed, 1), 9)
                out += pad(percent(slot.predicted?.serviceLevel), 9)
                out += pad(f(slot.predicted?.averageSpeedOfAnswerSeconds, 0), 7)
                out += pad(percent(slot.predicted?.abandonment), 9)
                if let staffed = slot.whatIfStaffed {
                    out += "  | " + pad(f(staffed, 1), 15) + pad(percent(slot.whatIf?.serviceLevel), 9)
                    out += pad(f(slot.whatIf?.averageSpeedOfAnswerSeconds, 0), 7)
                    out += pad(percent(slot.whatIf?.abandonment), 9)
                }
                out += "\n"
            }
        }
        for note in notes { out += "note: \(note)\n" }
        return out
    }

    /// `HH:MM` of `minute` from the business date's midnight.
    static func clock(_ minute: Double) -> String {
        IntradayChange.clock(Int(minute.rounded(.down)))
    }

    /// Four decimals: enough for a rate, short in JSON; every figure of ``json()`` is rounded so
    /// (the MCP `staffing_outlook` tool gives the same).
    public static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }
}
