/// One element of `Contacts[]` in an agent snapshot.
public struct AgentContact: Sendable, Hashable {
    /// `State` of the contact on the agent's desk. Unknown states are kept as ``other(_:)``.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// `INCOMING`: offered to the agent (ringing, callbacks).
        case incoming
        /// `PENDING`: a callback waiting to be dialled.
        case pending
        /// `CONNECTING`: being connected to the agent.
        case connecting
        /// `CONNECTED`: talking.
        case connected
        /// `CONNECTED_ONHOLD`: the customer is on hold.
        case connectedOnHold
        /// `MISSED`: the agent did not answer in time.
        case missed
        /// `REJECTED`: the agent rejected it.
        case rejected
        /// `ERROR`.
        case error
        /// `ENDED`: the customer left; the agent is in after-contact work.
        case ended
        /// Any other value.
        case other(String)

        /// Reads a wire value.
        public init(rawValue: String) {
            switch rawValue {
            case "INCOMING": self = .incoming
            case "PENDING": self = .pending
            case "CONNECTING": self = .connecting
            case "CONNECTED": self = .connected
            case "CONNECTED_ONHOLD": self = .connectedOnHold
            case "MISSED": self = .missed
            case "REJECTED": self = .rejected
            case "ERROR": self = .error
            case "ENDED": self = .ended
            default: self = .other(rawValue)
            }
        }

        /// The wire spelling.
        public var rawValue: String {
            switch self {
            case .incoming: return "INCOMING"
            case .pending: return "PENDING"
            case .connecting: return "CONNECTING"
            case .connected: return "CONNECTED"
            case .connectedOnHold: return "CONNECTED_ONHOLD"
            case .missed: return "MISSED"
            case .rejected: return "REJECTED"
            case .error: return "ERROR"
            case .ended: return "ENDED"
            case .other(let value): return value
            }
        }

        public var description: String { rawValue }
    }

    /// `ContactId`.
    public var contactId: String
    /// `InitialContactId`.
    public var initialContactId: String?
    /// `Channel`.
    public var channel: ContactChannel?
    /// `InitiationMethod`.
    public var initiationMethod: String?
    /// `State`.
    public var state: State
    /// `StateStartTimestamp`: since when the contact is in ``state``.
    public var stateStartTimestamp: UTCTimestamp?
    /// `ConnectedToAgentTimestamp`.
    public var connectedToAgentTimestamp: UTCTimestamp?
    /// `QueueTimestamp`: when the contact entered the queue.
    public var queueTimestamp: UTCTimestamp?
    /// `Queue`.
    public var queue: ResourceReference?

    /// Creates a contact of a snapshot.
    public init(
        contactId: String,
        initialContactId: String? = nil,
        channel: ContactChannel? = .voice,
        initiationMethod: String? = "INBOUND",
        state: State,
        stateStartTimestamp: UTCTimestamp?,
        connectedToAgentTimestamp: UTCTimestamp? = nil,
        queueTimestamp: UTCTimestamp? = nil,
        queue: ResourceReference? = nil
    ) {
        self.contactId = contactId
        self.initialContactId = initialContactId
        self.channel = channel
        self.initiationMethod = initiationMethod
        self.state = state
        self.stateStartTimestamp = stateStartTimestamp
        self.connectedToAgentTimestamp = connectedToAgentTimestamp
        self.queueTimestamp = queueTimestamp
        self.queue = queue
    }
}
