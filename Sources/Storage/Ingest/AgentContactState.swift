import ContactCenter

/// The contact state that decides an agent's activity in Amazon Connect's metrics, stored as
/// `agent_event.contact_state` for the analyst views.
///
/// Connect's "Agent Activity" (real-time metrics definitions) ranks an agent's concurrent
/// contacts: a contact in error, else missed, else rejected, else connected or on hold, else in
/// after-contact work, else incoming or connecting. Unlike the console's ``AgentActivity``, the
/// analyst views keep connecting time apart (Connect's occupancy counts it on neither side) and
/// count missed, rejected and error time as the agent's idle time.
enum AgentContactState: String, CaseIterable {
    /// `ERROR`: the connection to the agent failed.
    case error = "ERROR"
    /// `MISSED`: the agent did not accept an offered contact.
    case missed = "MISSED"
    /// `REJECTED`: the agent declined an offered contact.
    case rejected = "REJECTED"
    /// `CONNECTED` or `CONNECTED_ONHOLD`.
    case connected = "CONNECTED"
    /// `ENDED`: after-contact work.
    case ended = "ENDED"
    /// `INCOMING`, `PENDING` or `CONNECTING`: offered or ringing, not yet connected.
    case connecting = "CONNECTING"

    /// The deciding state among `contacts`, by Connect's precedence; `nil` when none has a known state.
    static func deciding(_ contacts: [AgentContact]) -> AgentContactState? {
        var best: AgentContactState?
        for contact in contacts {
            guard let state = AgentContactState(contact.state) else { continue }
            if best.map({ state.rank < $0.rank }) ?? true { best = state }
        }
        return best
    }

    private init?(_ state: AgentContact.State) {
        switch state {
        case .error: self = .error
        case .missed: self = .missed
        case .rejected: self = .rejected
        case .connected, .connectedOnHold: self = .connected
        case .ended: self = .ended
        case .incoming, .pending, .connecting: self = .connecting
        case .other: return nil
        }
    }

    /// Lower ranks win.
    private var rank: Int { Self.allCases.firstIndex(of: self)! }
}
