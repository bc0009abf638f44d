/// An input of the floor reducer.
public enum FloorEvent: Sendable, Hashable {
    /// An agent event from the `agent-events` topic.
    case agent(AgentEvent)
    /// A contact event from the `contact-events` topic.
    case contact(ContactEvent)
    /// The passage of time: closes out stale contacts, purges old finished contacts, removes
    /// silent agents and rolls the business day. Send one every few seconds.
    case tick
}

/// What the reducer did with an event.
public enum FloorEventOutcome: Sendable, Hashable {
    /// The event was folded into the state (the state may still be unchanged).
    case applied
    /// The event's id was seen recently; nothing changed.
    case duplicate
    /// The agent event is older than the last one applied for that agent; nothing changed.
    case outdated
    /// The event carries nothing the floor uses (e.g. an unknown contact event type).
    case ignored
}
