/// What the operator console shows: a pure function of ``FloorState``.
///
/// Times are instants ("since"), never elapsed durations, so the view changes only when the
/// floor does, not every second; the console computes "3 min 12 s" itself. Agents are sorted by
/// name, queues by name (ties by id), so equal states give equal views and the JSON is stable.
///
/// The server pushes a full view once per connection, then ``FloorDelta``s from
/// ``diff(from:to:)``; a client folding them with ``applying(_:)`` holds exactly the server's
/// view.
public struct FloorView: Sendable, Hashable, Codable {
    /// The business day of the counters, `YYYY-MM-DD` in the floor's time zone.
    public var businessDay: String?
    /// The service-level threshold in seconds, for labelling.
    public var serviceLevelThresholdSeconds: Int
    /// Agents, sorted by name then id.
    public var agents: [AgentView]
    /// Queues, sorted by name then id.
    public var queues: [QueueView]
    /// The summary tiles.
    public var summary: FloorSummary

    /// Creates a view from its parts (clients decoding JSON use `Codable` instead).
    public init(
        businessDay: String?, serviceLevelThresholdSeconds: Int, agents: [AgentView], queues: [QueueView],
        summary: FloorSummary
    ) {
        self.businessDay = businessDay
        self.serviceLevelThresholdSeconds = serviceLevelThresholdSeconds
        self.agents = agents.sorted(by: AgentView.displayOrder)
        self.queues = queues.sorted(by: QueueView.displayOrder)
        self.summary = summary
    }

    /// The view of `state`.
    public init(_ state: FloorState) {
        var waiting: [String: (count: Int, oldest: UTCTimestamp?)] = [:]
        for contact in state.contacts.values where contact.isWaiting {
            guard let arn = contact.queueArn, let enqueued = contact.enqueueTimestamp else { continue }
            var entry = waiting[arn] ?? (0, nil)
            entry.count += 1
            entry.oldest = min(entry.oldest ?? enqueued, enqueued)
            waiting[arn] = entry
        }
        var queueNames: [String: String] = [:]
        for queue in state.queues.values { queueNames[queue.arn] = queue.displayName }

        let agents = state.agents.values.map { AgentView($0, queueNames: queueNames) }
        let queues = state.queues.values.map { queue in
            QueueView(
                id: queue.arn, name: queue.displayName,
                waiting: waiting[queue.arn]?.count ?? 0, oldestWaitSince: waiting[queue.arn]?.oldest,
                offered: queue.offered, answered: queue.answered, abandoned: queue.abandoned,
                answeredWithinThreshold: queue.answeredWithinThreshold, serviceLevel: queue.serviceLevel)
        }
        self.init(
            businessDay: state.businessDay?.date,
            serviceLevelThresholdSeconds: Int(state.configuration.serviceLevelThreshold.components.seconds),
            agents: agents,
            queues: queues,
            summary: FloorSummary(agents: agents, queues: queues)
        )
    }
}
