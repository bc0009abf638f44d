/// A contact on the floor, folded from its contact events in whatever order they arrived.
public struct FloorContact: Sendable, Hashable {
    /// The state of a contact, in the order it only ever moves forward.
    public enum State: Int, Sendable, Hashable, Comparable, Codable {
        case initiated
        case connectedToSystem
        case queued
        case connectedToAgent
        case disconnected
        case completed

        /// The state a contact event type moves to; `nil` for types that do not move state.
        public init?(_ eventType: ContactEvent.EventType) {
            guard let rank = eventType.rank, let state = State(rawValue: rank) else { return nil }
            self = state
        }

        public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// `contactId`.
    public internal(set) var contactId: String
    /// The furthest state any event has reported.
    public internal(set) var state: State
    /// When the contact reached ``state`` (the event's own timestamp, else its envelope time).
    public internal(set) var stateSince: UTCTimestamp
    /// `channel`.
    public internal(set) var channel: ContactChannel?
    /// `initiationMethod`.
    public internal(set) var initiationMethod: String?
    /// `initiationTimestamp`.
    public internal(set) var initiationTimestamp: UTCTimestamp?
    /// The queue (`queueInfo.queueArn`).
    public internal(set) var queueArn: String?
    /// `queueInfo.enqueueTimestamp` (the `QUEUED` event's time when absent).
    public internal(set) var enqueueTimestamp: UTCTimestamp?
    /// The agent (`agentInfo.agentArn`).
    public internal(set) var agentArn: String?
    /// `agentInfo.connectedToAgentTimestamp` (the `CONNECTED_TO_AGENT` event's time when absent).
    public internal(set) var connectedToAgentTimestamp: UTCTimestamp?
    /// `disconnectTimestamp` (the `DISCONNECTED` event's time when absent).
    public internal(set) var disconnectTimestamp: UTCTimestamp?
    /// When a tick closed the contact out for lack of events; `nil` otherwise.
    public internal(set) var closedOutAt: UTCTimestamp?
    /// The latest envelope time of the events applied.
    public internal(set) var lastEventTime: UTCTimestamp
    /// The reducer's `now` when the last event was applied, for the stale-contact timeout.
    public internal(set) var lastSeen: UTCTimestamp
    /// Whether a later contact names this one as its previous contact (a callback, a transfer
    /// or a queue transfer): the contact moved on, so it is not abandoned.
    public internal(set) var movedOn: Bool = false
    /// What this contact adds to its queue's counters today.
    var contribution: QueueContribution?

    /// Whether the customer has left: disconnected, completed or closed out.
    public var isFinished: Bool { state >= .disconnected || closedOutAt != nil }

    /// Whether the contact waits in a queue now: queued, not yet connected to an agent, not
    /// finished.
    public var isWaiting: Bool {
        queueArn != nil && enqueueTimestamp != nil && connectedToAgentTimestamp == nil && !isFinished
    }
}
