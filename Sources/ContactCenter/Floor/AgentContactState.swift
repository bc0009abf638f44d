/// The contact state that decides an agent's activity, by Amazon Connect's "Agent Activity"
/// precedence (real-time metrics definitions).
///
/// Connect ranks an agent's concurrent contacts: a contact in error, else missed, else rejected,
/// else connected or on hold, else in after-contact work, else incoming or connecting. The
/// console (``AgentActivity``) and the analyst views (`agent_event.contact_state`, read by
/// `agent_activity_segment`) both classify by it, so they agree on what an agent was doing.
public enum AgentContactState: String, Sendable, Hashable, CaseIterable {
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
    public static func deciding(_ contacts: [AgentContact]) -> AgentContactState? {
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
