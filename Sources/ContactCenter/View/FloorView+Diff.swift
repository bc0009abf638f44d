extension FloorView {
    /// What changed from `old` to `new`; `nil` when nothing did, so nothing is pushed.
    ///
    /// - Important: `old.applying(diff(from: old, to: new)!)` equals `new`, and so does any
    ///   client that folds the deltas in order from the same starting view.
    public static func diff(from old: FloorView, to new: FloorView) -> FloorDelta? {
        guard old != new else { return nil }
        func changes<Row: Identifiable & Equatable>(_ old: [Row], _ new: [Row]) -> (upserted: [Row], removed: [Row.ID])
        where Row.ID == String {
            var before: [String: Row] = [:]
            for row in old { before[row.id] = row }
            let upserted = new.filter { before[$0.id] != $0 }
            let current = Set(new.map(\.id))
            let removed = old.map(\.id).filter { !current.contains($0) }
            return (upserted, removed)
        }
        let agents = changes(old.agents, new.agents)
        let queues = changes(old.queues, new.queues)
        return FloorDelta(
            businessDay: new.businessDay,
            agents: agents.upserted,
            removedAgents: agents.removed,
            queues: queues.upserted,
            removedQueues: queues.removed,
            summary: new.summary)
    }

    /// This view with `delta` applied: rows replaced or added by id, removed rows dropped,
    /// the order restored, the summary replaced.
    public func applying(_ delta: FloorDelta) -> FloorView {
        func apply<Row: Identifiable>(_ rows: [Row], _ upserted: [Row], _ removed: [Row.ID]) -> [Row]
        where Row.ID == String {
            var byId: [String: Row] = [:]
            for row in rows { byId[row.id] = row }
            for id in removed { byId[id] = nil }
            for row in upserted { byId[row.id] = row }
            return Array(byId.values)
        }
        return FloorView(
            businessDay: delta.businessDay,
            serviceLevelThresholdSeconds: serviceLevelThresholdSeconds,
            agents: apply(agents, delta.agents, delta.removedAgents),
            queues: apply(queues, delta.queues, delta.removedQueues),
            summary: delta.summary)
    }
}
