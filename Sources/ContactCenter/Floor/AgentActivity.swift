/// What an agent is doing: Amazon Connect's "Agent Activity" (real-time metrics definitions),
/// as the console's tiles count it and the analyst views' `agent_activity_segment.activity`
/// classifies it.
///
/// The raw values are the analyst views' activity names. Contacts decide first, by
/// ``AgentContactState``'s precedence, then the status.
public enum AgentActivity: String, Sendable, Hashable, Codable, CaseIterable {
    /// Routable status and no contact: can take a contact now.
    case available
    /// A contact is incoming, pending or connecting (ringing), none is connected or ended.
    case connecting
    /// A contact is connected or on hold.
    case onContact
    /// No live contact, but one has ended and the agent is wrapping it up (`ENDED`).
    case afterContactWork
    /// A contact missed, rejected or in error that the agent has not cleared yet (Connect's
    /// Agent Activity "Error", "Missed" and "Rejected"); it wins over every other contact.
    case error
    /// A custom (non-routable) status and no contact.
    case customStatus
    /// Offline status, or logged out, and no contact.
    case offline

    /// Classifies an agent by its contacts first, then its status.
    ///
    /// Contacts win over status: an agent who switches to a custom status while wrapping up a
    /// contact is still in after-contact work.
    public init(status: AgentStatus.Kind?, contacts: [AgentContact]) {
        switch AgentContactState.deciding(contacts) {
        case .error, .missed, .rejected: self = .error
        case .connected: self = .onContact
        case .ended: self = .afterContactWork
        case .connecting: self = .connecting
        case nil:
            switch status {
            case .routable: self = .available
            case .custom, .other: self = .customStatus
            case .offline, nil: self = .offline
            }
        }
    }
}
