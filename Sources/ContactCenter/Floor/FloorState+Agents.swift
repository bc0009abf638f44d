extension FloorState {
    /// Folds an agent event: `LOGOUT` removes the agent, any other event replaces it with its
    /// current snapshot.
    mutating func apply(_ event: AgentEvent, now: UTCTimestamp) -> FloorEventOutcome {
        if let existing = agents[event.agentArn], event.eventTimestamp < existing.lastEventTimestamp {
            return .outdated
        }
        if event.eventType == .logout {
            agents[event.agentArn] = nil
            return .applied
        }
        guard let snapshot = event.currentSnapshot else {
            // Nothing to resynchronise from; the agent is alive, though.
            guard agents[event.agentArn] != nil else { return .ignored }
            agents[event.agentArn]!.lastEventTimestamp = event.eventTimestamp
            agents[event.agentArn]!.lastSeen = now
            return .applied
        }
        let configuration = snapshot.configuration
        let profile = configuration?.routingProfile
        agents[event.agentArn] = FloorAgent(
            arn: event.agentArn,
            username: configuration?.username,
            firstName: configuration?.firstName,
            lastName: configuration?.lastName,
            status: snapshot.status,
            contacts: snapshot.contacts,
            routingProfile: profile.map { ResourceReference(arn: $0.arn, name: $0.name) },
            inboundQueues: profile?.inboundQueues ?? [],
            lastEventTimestamp: event.eventTimestamp,
            lastSeen: now
        )
        for queue in profile?.inboundQueues ?? [] { registerQueue(arn: queue.arn, name: queue.name) }
        for contact in snapshot.contacts { registerQueue(arn: contact.queue?.arn, name: contact.queue?.name) }
        return .applied
    }
}
