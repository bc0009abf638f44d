import Foundation
import Primitives

/// The rest of a business day reforecast from how the day so far departs from its plan
/// (docs/staffing.md, "Intraday"), for one queue.
///
/// **Volume.** The queue has a level r relative to its plan, with a Gamma prior of strength k
/// contacts centred on 1 (``IntradayParameters/volumePriorContacts``). After N contacts offered
/// against F forecast so far, its posterior mean is r = (k + N) / (k + F): with little volume the
/// plan stands, with much the day's own level wins. N and F weigh each elapsed slot by
/// 2^(−age / half-life) (``IntradayParameters/halfLifeMinutes``), so a change of level at 17:00
/// is not averaged away by a calm lunch. Optionally each store feeding the queue has its own
/// level around the queue's, r_s = (k_s r + N_s) / (k_s + F_s)
/// (``IntradayParameters/storePriorContacts``); the backtest found the queue's level alone
/// better on these volumes. The remaining slots are the plan × r (each store's part × r_s);
/// the current slot is its contacts so far plus that for its remaining minutes; a closed slot
/// is what was offered.
///
/// **Handle time.** One ratio per queue: (k_h + Σ handle seconds / the plan's AHT of their slot)
/// / (k_h + handled contacts), the same shrinkage with its own strength
/// (``IntradayParameters/handleTimePriorContacts``), applied to the plan's AHT of each remaining
/// slot.
///
/// **Staffing.** Every slot is staffed with the plan's model and target for its reforecast, and
/// the staffed agents given (the floor's now, or the plan's) are scored with the same model:
/// service level, ASA and abandonment, with and without a what-if change.
///
/// Pure: a function of its inputs.
public struct IntradayReforecast: Sendable {
    /// One slot of the plan: its forecast and the agents it staffed.
    public struct PlanSlot: Sendable, Equatable {
        /// Forecast offered contacts.
        public var offered: Double
        /// Forecast AHT, seconds; nil when unknown.
        public var averageHandleTimeSeconds: Double?
        /// The agents the plan needs (whole); nil when the plan could not staff it.
        public var agents: Int?
        /// The offered contacts per store feeding the queue (their sum is `offered`, or the
        /// shares of it); empty: the queue is updated as one.
        public var offeredByStore: [String: Double]

        public init(
            offered: Double, averageHandleTimeSeconds: Double?, agents: Int?, offeredByStore: [String: Double] = [:]
        ) {
            self.offered = offered
            self.averageHandleTimeSeconds = averageHandleTimeSeconds
            self.agents = agents
            self.offeredByStore = offeredByStore
        }
    }

    /// What one slot holds so far.
    public struct ActualSlot: Sendable, Equatable {
        /// Contacts offered (answered, abandoned or calling back), per store (`(unknown)` for
        /// none), by the time they entered the queue.
        public var offeredByStore: [String: Double]
        public var answered: Double
        public var abandoned: Double
        /// Σ handle seconds of answered contacts with a handle time, and how many they are.
        public var handleSeconds: Double
        public var handled: Double

        public init(
            offeredByStore: [String: Double], answered: Double = 0, abandoned: Double = 0, handleSeconds: Double = 0,
            handled: Double = 0
        ) {
            self.offeredByStore = offeredByStore
            self.answered = answered
            self.abandoned = abandoned
            self.handleSeconds = handleSeconds
            self.handled = handled
        }

        /// Contacts offered in the slot.
        public var offered: Double { offeredByStore.values.reduce(0, +) }
    }

    /// Where a slot stands at the reforecast's instant.
    public enum SlotState: String, Sendable {
        case closed, current, future
    }

    /// The predicted figures of a slot with some agents.
    public struct Prediction: Sendable, Equatable {
        /// Answered within the threshold over offered, 0–1.
        public var serviceLevel: Double
        /// Mean wait of answered contacts, seconds; nil when unbounded.
        public var averageSpeedOfAnswerSeconds: Double?
        /// The share that hangs up (Erlang A); nil under Erlang C.
        public var abandonment: Double?
    }

    /// One slot of the reforecast day.
    public struct Slot: Sendable, Equatable {
        public var slot: DaySlot
        public var state: SlotState
        /// The plan's slot (zero where the plan has none).
        public var plan: PlanSlot
        /// What was offered so far (closed and current slots).
        public var actual: ActualSlot?
        /// The whole slot as now expected: what was offered where closed; for the current slot
        /// its contacts so far plus the reforecast of its remaining minutes.
        public var reforecastOffered: Double
        public var reforecastAverageHandleTimeSeconds: Double?
        /// The agents the reforecast needs (whole and fractional); nil without an AHT.
        public var agentsNeeded: Int?
        public var fractionalAgentsNeeded: Double?
        /// The agents staffed (the floor's now or the plan's); nil when unknown.
        public var staffed: Double?
        /// The reforecast scored with `staffed`.
        public var predicted: Prediction?
        /// Staffed with the what-if changes, and its score; nil without a change in this slot.
        public var whatIfStaffed: Double?
        public var whatIf: Prediction?
    }

    /// The queue's id.
    public let queue: String
    /// The slots of the day, the plan's and any with contacts, in order.
    public let slots: [Slot]
    /// The queue's level now: Σ reforecast ÷ Σ plan over the remaining slots (1 with no plan left).
    public let volumeRatio: Double
    /// The handle-time ratio applied to the plan's AHT.
    public let handleTimeRatio: Double
    /// Minutes after the business date's midnight the reforecast stands at.
    public let minute: Double

    /// What staffs and scores the slots.
    public struct Staffing: Sendable {
        public var model: StaffingPlan.ModelChoice
        public var target: ServiceTarget
        /// Erlang A's patience (nil: Erlang C).
        public var patienceSeconds: Double?

        public init(model: StaffingPlan.ModelChoice, target: ServiceTarget, patienceSeconds: Double?) {
            self.model = model
            self.target = target
            self.patienceSeconds = patienceSeconds
        }

        var erlang: StaffingModel {
            if model == .erlangA, let patience = patienceSeconds { return .erlangA(patienceSeconds: patience) }
            return .erlangC
        }
    }

    /// Reforecasts one queue's day.
    /// - Parameters:
    ///   - queue: The queue's id.
    ///   - plan: The plan's slots of the day.
    ///   - actual: What each slot holds so far.
    ///   - inProgress: Contacts in the queue or with an agent now that no record counts yet
    ///     (the live floor): they count in the current slot, shared among the stores as its plan.
    ///   - minute: Minutes after the business date's midnight (past 1,440 for the night).
    ///   - staffed: The agents staffed per slot (nil: unknown).
    ///   - changes: What-if changes of the agents on this queue per slot (added; negative: moved away).
    ///   - staffing: The model and target; nil: the volumes and handle times only (backtests).
    ///   - parameters: The priors and the half-life.
    /// - Throws: `StaffingError` for a slot the model cannot staff.
    public init(
        queue: String, plan: [DaySlot: PlanSlot], actual: [DaySlot: ActualSlot], inProgress: Double = 0,
        minute: Double, staffed: (DaySlot) -> Double?, changes: [DaySlot: Double] = [:], staffing: Staffing?,
        parameters: IntradayParameters = .standard
    ) throws(StaffingError) {
        self.queue = queue
        self.minute = minute
        let slotMinutes = Double(DaySlot.minutes)
        let days = Set(plan.keys).union(actual.keys).sorted()
        func elapsed(_ slot: DaySlot) -> Double {
            min(1, max(0, (minute - Double(slot.index) * slotMinutes) / slotMinutes))
        }
        let current = DaySlot(Int((minute / slotMinutes).rounded(.down)))

        // The plan per store: a slot's stores' shares of its offered contacts.
        func planByStore(_ slot: DaySlot) -> [String: Double] {
            guard let p = plan[slot] else { return [:] }
            let total = p.offeredByStore.values.reduce(0, +)
            guard total > 0 else { return [Self.wholeQueue: p.offered] }
            return p.offeredByStore.mapValues { p.offered * $0 / total }
        }
        let keyedByStore = plan.values.contains { !$0.offeredByStore.isEmpty }

        // Evidence per store: N and F weighted by age.
        var seen: [String: Double] = [:]
        var expected: [String: Double] = [:]
        var handleRatioSum = 0.0
        var handledCount = 0.0
        for slot in days {
            let e = elapsed(slot)
            guard e > 0 else { continue }
            let age = minute - (Double(slot.index) * slotMinutes + e * slotMinutes / 2)
            let weight = parameters.halfLifeMinutes.map { pow(0.5, max(0, age) / $0) } ?? 1
            let parts = planByStore(slot)
            for (store, offered) in parts { expected[store, default: 0] += weight * e * offered }
            if let a = actual[slot] {
                for (store, offered) in a.offeredByStore {
                    seen[keyedByStore ? store : Self.wholeQueue, default: 0] += weight * offered
                }
                if let aht = plan[slot]?.averageHandleTimeSeconds, aht > 0, a.handled > 0 {
                    handleRatioSum += a.handleSeconds / aht
                    handledCount += a.handled
                }
            }
            if slot == current, inProgress > 0 {
                let total = parts.values.reduce(0, +)
                if total > 0 {
                    for (store, offered) in parts { seen[store, default: 0] += weight * inProgress * offered / total }
                } else {
                    seen[Self.wholeQueue, default: 0] += weight * inProgress
                }
            }
        }
        let k = parameters.volumePriorContacts
        let queueRatio = (k + seen.values.reduce(0, +)) / (k + expected.values.reduce(0, +))
        func ratio(_ store: String) -> Double {
            guard let ks = parameters.storePriorContacts else { return queueRatio }
            return (ks * queueRatio + (seen[store] ?? 0)) / (ks + (expected[store] ?? 0))
        }
        let kh = parameters.handleTimePriorContacts
        let handleRatio = (kh + handleRatioSum) / (kh + handledCount)
        handleTimeRatio = handleRatio

        var result: [Slot] = []
        var remainingPlan = 0.0
        var remainingReforecast = 0.0
        for slot in days {
            let e = elapsed(slot)
            let p = plan[slot] ?? PlanSlot(offered: 0, averageHandleTimeSeconds: nil, agents: nil)
            let a = actual[slot]
            let state: SlotState = e >= 1 ? .closed : (e > 0 ? .current : .future)
            var ahead = 0.0
            for (store, offered) in planByStore(slot) { ahead += ratio(store) * offered * (1 - e) }
            let sofar = (a?.offered ?? 0) + (state == .current ? inProgress : 0)
            let offered = state == .closed ? sofar : sofar + ahead
            remainingPlan += p.offered * (1 - e)
            remainingReforecast += ahead
            var aht = p.averageHandleTimeSeconds.map { $0 * handleRatio }
            if state == .closed, let a, a.handled > 0 { aht = a.handleSeconds / a.handled }
            var row = Slot(
                slot: slot, state: state, plan: p, actual: a, reforecastOffered: offered,
                reforecastAverageHandleTimeSeconds: aht, agentsNeeded: nil, fractionalAgentsNeeded: nil,
                staffed: staffed(slot), predicted: nil, whatIfStaffed: nil, whatIf: nil)
            if let staffing, let aht, aht > 0 {
                let model = staffing.erlang
                let load = try TrafficLoad(volume: offered, intervalSeconds: 900, averageHandleTimeSeconds: aht)
                let requirement = try StaffingRequirement(load: load, model: model, target: staffing.target)
                row.agentsNeeded = requirement.agents
                row.fractionalAgentsNeeded = requirement.fractionalAgents
                if let on = row.staffed {
                    row.predicted = try Self.predict(load: load, model: model, agents: on, staffing: staffing)
                }
                if let change = changes[slot], change != 0 {
                    let on = max(0, (row.staffed ?? 0) + change)
                    row.whatIfStaffed = on
                    row.whatIf = try Self.predict(load: load, model: model, agents: on, staffing: staffing)
                }
            } else if let change = changes[slot], change != 0 {
                row.whatIfStaffed = max(0, (row.staffed ?? 0) + change)
            }
            result.append(row)
        }
        slots = result
        volumeRatio = remainingPlan > 0 ? remainingReforecast / remainingPlan : 1
    }

    /// The key of a queue updated as one (a plan without stores).
    static let wholeQueue = "*"

    /// The figures of `agents` (fractional: interpolated between the whole numbers around it).
    static func predict(
        load: TrafficLoad, model: StaffingModel, agents: Double, staffing: Staffing
    ) throws(StaffingError) -> Prediction {
        let low = Int(agents.rounded(.down))
        let share = agents - Double(low)
        let threshold = staffing.target.thresholdSeconds
        let below = try StaffingRequirement.performance(
            load: load, model: model, agents: low, thresholdSeconds: threshold)
        guard share > 1e-9 else {
            return Prediction(
                serviceLevel: below.serviceLevel, averageSpeedOfAnswerSeconds: below.averageSpeedOfAnswerSeconds,
                abandonment: below.probabilityOfAbandoning)
        }
        let above = try StaffingRequirement.performance(
            load: load, model: model, agents: low + 1, thresholdSeconds: threshold)
        func mix(_ x: Double?, _ y: Double?) -> Double? {
            guard let x, let y else { return nil }
            return x + (y - x) * share
        }
        return Prediction(
            serviceLevel: below.serviceLevel + (above.serviceLevel - below.serviceLevel) * share,
            averageSpeedOfAnswerSeconds: mix(below.averageSpeedOfAnswerSeconds, above.averageSpeedOfAnswerSeconds),
            abandonment: mix(below.probabilityOfAbandoning, above.probabilityOfAbandoning))
    }

    /// The slots from `minute` for the next `minutes` (the current slot included).
    public func ahead(minutes: Double) -> ArraySlice<Slot> {
        let end = minute + minutes
        let slotMinutes = Double(DaySlot.minutes)
        return slots.filter { slot in
            let start = Double(slot.slot.index) * slotMinutes
            return start + slotMinutes > minute && start < end
        }[...]
    }

    /// Needed minus staffed over the next hour: the largest gap of whole agents needed and
    /// agents staffed among its slots; nil when nothing is staffed or needed there.
    public var shortfallNextHour: Double? {
        var worst: Double?
        for slot in ahead(minutes: 60) {
            guard let needed = slot.agentsNeeded, let staffed = slot.staffed else { continue }
            let gap = Double(needed) - staffed
            worst = max(worst ?? gap, gap)
        }
        return worst
    }

    /// Whether a slot of the next hour with contacts expected is predicted below the target's
    /// service level with the agents staffed.
    public func missesTargetNextHour(_ target: ServiceTarget) -> Bool {
        ahead(minutes: 60).contains { slot in
            guard slot.reforecastOffered > 0.01, let p = slot.predicted else { return false }
            return p.serviceLevel < target.serviceLevel - 1e-9
        }
    }
}

/// The reforecast's parameters (docs/staffing.md, "Intraday"; chosen by `switchboard staffing
/// backtest --intraday`, see docs/benchmarks.md).
public struct IntradayParameters: Sendable, Equatable {
    /// The strength k of the queue's volume prior, in forecast contacts.
    public var volumePriorContacts: Double
    /// The strength of each store's prior centred on the queue's level; nil: every store follows
    /// the queue's level.
    public var storePriorContacts: Double?
    /// The half-life of the evidence, minutes; nil: every slot of the day counts alike.
    public var halfLifeMinutes: Double?
    /// The strength of the handle-time prior, in handled contacts.
    public var handleTimePriorContacts: Double

    public init(
        volumePriorContacts: Double, storePriorContacts: Double? = nil, halfLifeMinutes: Double?,
        handleTimePriorContacts: Double
    ) {
        self.volumePriorContacts = volumePriorContacts
        self.storePriorContacts = storePriorContacts
        self.halfLifeMinutes = halfLifeMinutes
        self.handleTimePriorContacts = handleTimePriorContacts
    }

    /// The parameters the product uses.
    public static let standard = IntradayParameters(
        volumePriorContacts: 32, storePriorContacts: nil, halfLifeMinutes: 120, handleTimePriorContacts: 30)
}
