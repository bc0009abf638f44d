import Primitives

/// The agents staffed now, per queue, from the floor's routing profiles (docs/staffing.md,
/// "Staffed now").
///
/// An agent counts when available, on a contact or in after-contact work. Each such agent counts
/// toward the queues its routing profile serves (`Configuration.RoutingProfile.InboundQueues` of
/// the agent events), split in proportion to those queues' forecast offered load in the current
/// slot (contacts × AHT / 900 s, in Erlangs), equally when every one of them is forecast 0 (or no
/// forecast is known). So an agent serving a busy queue and a quiet one counts wholly toward the
/// busy one, and the per-queue figures of one agent add up to 1. The ``pool`` is every counted
/// agent, whatever they serve: the "All queues" figure.
///
/// Pure: a function of the floor's view and the loads.
public struct StaffedNow: Sendable, Hashable {
    /// Every agent available, on a contact or in after-contact work.
    public var pool: Int
    /// Agents per queue id (fractional): every queue of the floor's view, and every queue with a
    /// load, is present, 0 when nobody serves it.
    public var queues: [String: Double]

    /// Creates the figures from their parts.
    public init(pool: Int, queues: [String: Double]) {
        self.pool = pool
        self.queues = queues
    }

    /// The figures of `view`'s agents, shared out by `offeredLoad`.
    /// - Parameters:
    ///   - view: The floor. Agents name their queues by name or, where no name is known, by
    ///     ARN; both resolve to the queue's id through `view.queues`.
    ///   - offeredLoad: Erlangs per queue id in the current slot; a queue missing counts as 0, as
    ///     does a negative or non-finite load.
    public init(view: FloorView, offeredLoad: [String: Double]) {
        var ids: [String: String] = [:]
        for queue in view.queues {
            if ids[queue.name] == nil { ids[queue.name] = queue.id }
            ids[queue.id] = queue.id
        }
        var queues: [String: Double] = [:]
        for queue in view.queues { queues[queue.id] = 0 }
        for id in offeredLoad.keys { queues[id] = 0 }
        var pool = 0
        for agent in view.agents where Self.counts(agent.activity) {
            pool += 1
            var served: [String] = []
            for label in agent.queues {
                let id = ids[label] ?? label
                if !served.contains(id) { served.append(id) }
            }
            guard !served.isEmpty else { continue }
            let loads = served.map { id in offeredLoad[id].map { $0.isFinite && $0 > 0 ? $0 : 0 } ?? 0 }
            let total = loads.reduce(0, +)
            for (id, load) in zip(served, loads) {
                queues[id, default: 0] += total > 0 ? load / total : 1 / Double(served.count)
            }
        }
        self.init(pool: pool, queues: queues)
    }

    /// Whether an agent in `activity` is staffed: available, on a contact or in after-contact work.
    public static func counts(_ activity: AgentActivity) -> Bool {
        switch activity {
        case .available, .onContact, .afterContactWork: true
        case .connecting, .error, .customStatus, .offline: false
        }
    }
}

extension StaffingPlan {
    /// The forecast offered load per queue in `slot` of `date`, in Erlangs (contacts × AHT per
    /// 900 s); a queue without an AHT has load 0. Queues the plan has no row for are absent.
    public func offeredLoad(on date: CivilDate, slot: DaySlot) -> [String: Double] {
        var loads: [String: Double] = [:]
        for row in rows where row.forecast.date == date && row.forecast.slot == slot {
            let aht = row.forecast.averageHandleTimeSeconds ?? 0
            loads[row.forecast.queue, default: 0] += row.forecast.offered * aht / Double(DaySlot.minutes * 60)
        }
        return loads
    }
}
