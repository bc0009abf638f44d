/// What an agent is doing, as the console's summary tiles count it.
public enum AgentActivity: String, Sendable, Hashable, Codable, CaseIterable {
    /// Routable status and no contact: can take a contact now.
    case available
    /// A contact is incoming, pending, connecting, connected or on hold.
    case onContact
    /// No live contact, but one has ended and the agent is wrapping it up (`ENDED`).
    case afterContactWork
    /// A custom (non-routable) status, or a missed, rejected or failed contact the agent has
    /// not cleared yet (they take no contacts until they do).
    case customStatus
    /// Offline status and no contact.
    case offline

    /// Classifies an agent by its contacts first, then its status.
    ///
    /// Contacts win over status: an agent who switches to a custom status while wrapping up a
    /// contact is still in after-contact work.
    public init(status: AgentStatus.Kind?, contacts: [AgentContact]) {
        var ended = false
        var failed = false
        for contact in contacts {
            switch contact.state {
            case .incoming, .pending, .connecting, .connected, .connectedOnHold:
                self = .onContact
                return
            case .ended: ended = true
            case .missed, .rejected, .error: failed = true
            case .other: break
            }
        }
        if ended {
            self = .afterContactWork
        } else if failed {
            self = .customStatus
        } else {
            switch status {
            case .routable: self = .available
            case .custom, .other: self = .customStatus
            case .offline, nil: self = .offline
            }
        }
    }
}
