/// One agent as the console shows it.
public struct AgentView: Sendable, Hashable, Codable, Identifiable {
    /// The agent ARN.
    public var id: String
    /// "First Last", else the username.
    public var name: String
    /// The login name.
    public var username: String?
    /// What the agent is doing (drives the summary tiles and the row colour).
    public var activity: AgentActivity
    /// The status name the agent chose, e.g. `Available`, `Lunch`, `Offline`.
    public var status: String
    /// The status type on the wire: `ROUTABLE`, `CUSTOM` or `OFFLINE`.
    public var statusType: String
    /// Since when the agent has this status.
    public var statusSince: UTCTimestamp?
    /// The routing profile name.
    public var routingProfile: String?
    /// The names of the queues the agent takes contacts from.
    public var queues: [String]
    /// The contacts on the agent's desk.
    public var contacts: [AgentContactView]

    /// Creates an agent row.
    public init(
        id: String, name: String, username: String?, activity: AgentActivity, status: String, statusType: String,
        statusSince: UTCTimestamp?, routingProfile: String?, queues: [String], contacts: [AgentContactView]
    ) {
        self.id = id
        self.name = name
        self.username = username
        self.activity = activity
        self.status = status
        self.statusType = statusType
        self.statusSince = statusSince
        self.routingProfile = routingProfile
        self.queues = queues
        self.contacts = contacts
    }

    init(_ agent: FloorAgent, queueNames: [String: String]) {
        self.init(
            id: agent.arn,
            name: agent.displayName,
            username: agent.username,
            activity: agent.activity,
            status: agent.status?.name ?? agent.status?.type.rawValue.capitalized ?? "Offline",
            statusType: agent.status?.type.rawValue ?? "OFFLINE",
            statusSince: agent.status?.startTimestamp,
            routingProfile: agent.routingProfile?.name,
            queues: agent.inboundQueues.map { $0.name ?? $0.arn.flatMap { queueNames[$0] } ?? $0.arn ?? "" },
            contacts: agent.contacts.map { contact in
                AgentContactView(
                    contactId: contact.contactId,
                    channel: contact.channel?.rawValue,
                    state: AgentContactView.State(contact.state),
                    since: contact.stateStartTimestamp,
                    queue: contact.queue?.name ?? contact.queue?.arn.flatMap { queueNames[$0] })
            })
    }

    /// Name, then id: a total order, so the same agents always sort the same way.
    static func displayOrder(_ lhs: AgentView, _ rhs: AgentView) -> Bool {
        (lhs.name, lhs.id) < (rhs.name, rhs.id)
    }
}

/// A contact on an agent's desk, as the console shows it.
public struct AgentContactView: Sendable, Hashable, Codable {
    /// The state of the contact for the agent.
    public enum State: String, Sendable, Hashable, Codable {
        case incoming, pending, connecting, connected, onHold, missed, rejected, error
        /// `ENDED`: the customer left and the agent is in after-contact work.
        case afterContactWork
        /// A state this version does not know.
        case other

        init(_ state: AgentContact.State) {
            switch state {
            case .incoming: self = .incoming
            case .pending: self = .pending
            case .connecting: self = .connecting
            case .connected: self = .connected
            case .connectedOnHold: self = .onHold
            case .missed: self = .missed
            case .rejected: self = .rejected
            case .error: self = .error
            case .ended: self = .afterContactWork
            case .other: self = .other
            }
        }
    }

    /// The contact id.
    public var contactId: String
    /// `VOICE`, `CHAT`, `TASK`, `EMAIL`.
    public var channel: String?
    /// The state.
    public var state: State
    /// Since when the contact is in this state.
    public var since: UTCTimestamp?
    /// The queue name the contact came from.
    public var queue: String?

    /// Creates a contact row.
    public init(contactId: String, channel: String?, state: State, since: UTCTimestamp?, queue: String?) {
        self.contactId = contactId
        self.channel = channel
        self.state = state
        self.since = since
        self.queue = queue
    }
}
