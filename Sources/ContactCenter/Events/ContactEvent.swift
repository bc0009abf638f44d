import Foundation

/// An Amazon EventBridge "Amazon Connect Contact Event": one step of a contact's life.
///
/// The envelope (`id`, `time`, `region`, `resources`) and the `detail` are flattened into one
/// value. Contact events are best effort and unordered upstream: consumers order them by
/// ``EventType/rank`` first and ``time`` second, never by arrival. ``id`` is the dedupe key: the
/// envelope `id`, or for an event that came without the envelope a deterministic id derived from
/// the detail (``derivedId(contactId:eventType:time:)``).
///
/// Decode with ``init(jsonData:)``; produce wire JSON with ``jsonData()``. Unknown members
/// survive in ``rawJSON``.
public struct ContactEvent: Sendable, Hashable {
    /// `detail.eventType`. Unknown types are kept as ``other(_:)``.
    public enum EventType: Sendable, Hashable, CustomStringConvertible {
        case initiated
        case connectedToSystem
        case queued
        case connectedToAgent
        case disconnected
        /// Attributes or other data changed; does not move the contact's state.
        case contactDataUpdated
        /// After-contact work finished: the contact is over.
        case completed
        /// Any other value.
        case other(String)

        /// Reads a wire value.
        public init(rawValue: String) {
            switch rawValue {
            case "INITIATED": self = .initiated
            case "CONNECTED_TO_SYSTEM": self = .connectedToSystem
            case "QUEUED": self = .queued
            case "CONNECTED_TO_AGENT": self = .connectedToAgent
            case "DISCONNECTED": self = .disconnected
            case "CONTACT_DATA_UPDATED": self = .contactDataUpdated
            case "COMPLETED": self = .completed
            default: self = .other(rawValue)
            }
        }

        /// The wire spelling.
        public var rawValue: String {
            switch self {
            case .initiated: return "INITIATED"
            case .connectedToSystem: return "CONNECTED_TO_SYSTEM"
            case .queued: return "QUEUED"
            case .connectedToAgent: return "CONNECTED_TO_AGENT"
            case .disconnected: return "DISCONNECTED"
            case .contactDataUpdated: return "CONTACT_DATA_UPDATED"
            case .completed: return "COMPLETED"
            case .other(let value): return value
            }
        }

        /// The position of the state this event moves a contact to, in the order
        /// INITIATED (0) < CONNECTED_TO_SYSTEM < QUEUED < CONNECTED_TO_AGENT < DISCONNECTED <
        /// COMPLETED (5); `nil` for events that do not move the state (`CONTACT_DATA_UPDATED`,
        /// unknown types).
        public var rank: Int? {
            switch self {
            case .initiated: return 0
            case .connectedToSystem: return 1
            case .queued: return 2
            case .connectedToAgent: return 3
            case .disconnected: return 4
            case .completed: return 5
            case .contactDataUpdated, .other: return nil
            }
        }

        public var description: String { rawValue }
    }

    /// `detail.queueInfo`.
    public struct QueueInfo: Sendable, Hashable {
        /// `queueArn`.
        public var queueArn: String?
        /// `queueType`, e.g. `STANDARD`.
        public var queueType: String?
        /// `enqueueTimestamp`.
        public var enqueueTimestamp: UTCTimestamp?

        /// Creates queue information.
        public init(queueArn: String?, queueType: String? = "STANDARD", enqueueTimestamp: UTCTimestamp?) {
            self.queueArn = queueArn
            self.queueType = queueType
            self.enqueueTimestamp = enqueueTimestamp
        }
    }

    /// `detail.agentInfo`.
    public struct AgentInfo: Sendable, Hashable {
        /// `agentArn`.
        public var agentArn: String?
        /// `connectedToAgentTimestamp`.
        public var connectedToAgentTimestamp: UTCTimestamp?

        /// Creates agent information.
        public init(agentArn: String?, connectedToAgentTimestamp: UTCTimestamp?) {
            self.agentArn = agentArn
            self.connectedToAgentTimestamp = connectedToAgentTimestamp
        }
    }

    /// The envelope's `detail-type`.
    public static let detailType = "Amazon Connect Contact Event"

    /// Envelope `id`: the dedupe key, never empty. Without the envelope,
    /// ``derivedId(contactId:eventType:time:)``.
    public var id: String
    /// Envelope `time`: when the event happened (second precision). Without the envelope, the
    /// time the detail gives the step it reports, see
    /// ``derivedTime(eventType:initiation:connectedToSystem:enqueue:connectedToAgent:disconnect:)``.
    public var time: UTCTimestamp
    /// Envelope `version`.
    public var version: String?
    /// Envelope `account`.
    public var account: String?
    /// Envelope `region`.
    public var region: String?
    /// Envelope `resources`: the instance and contact ARNs.
    public var resources: [String]
    /// `detail.eventType`.
    public var eventType: EventType
    /// `detail.contactId`, never empty.
    public var contactId: String
    /// `detail.initialContactId`.
    public var initialContactId: String?
    /// `detail.previousContactId`.
    public var previousContactId: String?
    /// `detail.channel`.
    public var channel: ContactChannel?
    /// `detail.instanceArn`.
    public var instanceArn: String?
    /// `detail.initiationMethod`.
    public var initiationMethod: String?
    /// `detail.initiationTimestamp`.
    public var initiationTimestamp: UTCTimestamp?
    /// `detail.connectedToSystemTimestamp`: when the customer endpoint connected to Amazon
    /// Connect (for outbound calls and callbacks: when the customer answered).
    public var connectedToSystemTimestamp: UTCTimestamp?
    /// `detail.disconnectTimestamp`.
    public var disconnectTimestamp: UTCTimestamp?
    /// `detail.queueInfo`.
    public var queueInfo: QueueInfo?
    /// `detail.agentInfo`.
    public var agentInfo: AgentInfo?
    /// The exact bytes this event was decoded from, or the same JSON value in `jsonb`'s member
    /// order (``RawJSONForm``); `nil` for events built in memory.
    public var rawJSON: Data?

    /// Creates an event in memory, e.g. for the traffic simulator or tests.
    public init(
        id: String,
        time: UTCTimestamp,
        eventType: EventType,
        contactId: String,
        version: String? = "0",
        account: String? = nil,
        region: String? = nil,
        resources: [String] = [],
        initialContactId: String? = nil,
        previousContactId: String? = nil,
        channel: ContactChannel? = .voice,
        instanceArn: String? = nil,
        initiationMethod: String? = "INBOUND",
        initiationTimestamp: UTCTimestamp? = nil,
        connectedToSystemTimestamp: UTCTimestamp? = nil,
        disconnectTimestamp: UTCTimestamp? = nil,
        queueInfo: QueueInfo? = nil,
        agentInfo: AgentInfo? = nil
    ) {
        self.id = id
        self.time = time
        self.eventType = eventType
        self.contactId = contactId
        self.version = version
        self.account = account
        self.region = region
        self.resources = resources
        self.initialContactId = initialContactId
        self.previousContactId = previousContactId
        self.channel = channel
        self.instanceArn = instanceArn
        self.initiationMethod = initiationMethod
        self.initiationTimestamp = initiationTimestamp
        self.connectedToSystemTimestamp = connectedToSystemTimestamp
        self.disconnectTimestamp = disconnectTimestamp
        self.queueInfo = queueInfo
        self.agentInfo = agentInfo
        self.rawJSON = nil
    }
}
