import Foundation

/// One record of the Amazon Connect agent event stream (Kinesis JSON, `Version` `2017-10-01`).
///
/// Every event except, sometimes, `LOGOUT` carries the agent's complete current snapshot, so
/// any event resynchronises the agent on the floor. Events of one agent arrive in order (the
/// Kafka key is the agent ARN); `EventId` is the dedupe key.
///
/// Decode with ``init(jsonData:)``; produce wire JSON with ``jsonData()``. Unknown members
/// survive in ``rawJSON``.
public struct AgentEvent: Sendable, Hashable {
    /// `EventType`. Unknown types are kept as ``other(_:)`` rather than rejected.
    public enum EventType: Sendable, Hashable, CustomStringConvertible {
        /// `STATE_CHANGE`: status, contact or configuration changed.
        case stateChange
        /// `HEART_BEAT`: sent every 120 s while nothing changes.
        case heartBeat
        /// `LOGIN`.
        case login
        /// `LOGOUT`: the agent left the floor.
        case logout
        /// Any other value, spelled as on the wire.
        case other(String)

        /// Reads a wire value.
        public init(rawValue: String) {
            switch rawValue {
            case "STATE_CHANGE": self = .stateChange
            case "HEART_BEAT": self = .heartBeat
            case "LOGIN": self = .login
            case "LOGOUT": self = .logout
            default: self = .other(rawValue)
            }
        }

        /// The wire spelling.
        public var rawValue: String {
            switch self {
            case .stateChange: return "STATE_CHANGE"
            case .heartBeat: return "HEART_BEAT"
            case .login: return "LOGIN"
            case .logout: return "LOGOUT"
            case .other(let value): return value
            }
        }

        public var description: String { rawValue }
    }

    /// `AgentARN`: the agent, the Kafka key, never empty.
    public var agentArn: String
    /// `EventId`: unique per event, the dedupe key, never empty.
    public var eventId: String
    /// `EventTimestamp` (millisecond precision).
    public var eventTimestamp: UTCTimestamp
    /// `EventType`.
    public var eventType: EventType
    /// `InstanceARN`.
    public var instanceArn: String?
    /// `AWSAccountId`.
    public var awsAccountId: String?
    /// `Version`, `2017-10-01` today.
    public var version: String?
    /// `CurrentAgentSnapshot`: the agent after the event.
    public var currentSnapshot: AgentSnapshot?
    /// `PreviousAgentSnapshot`: the agent before the event.
    public var previousSnapshot: AgentSnapshot?
    /// The exact bytes this event was decoded from, or the same JSON value in `jsonb`'s member
    /// order (``RawJSONForm``); `nil` for events built in memory.
    public var rawJSON: Data?

    /// Creates an event in memory, e.g. for the traffic simulator or tests.
    public init(
        agentArn: String,
        eventId: String,
        eventTimestamp: UTCTimestamp,
        eventType: EventType,
        instanceArn: String? = nil,
        awsAccountId: String? = nil,
        version: String? = "2017-10-01",
        currentSnapshot: AgentSnapshot?,
        previousSnapshot: AgentSnapshot? = nil
    ) {
        self.agentArn = agentArn
        self.eventId = eventId
        self.eventTimestamp = eventTimestamp
        self.eventType = eventType
        self.instanceArn = instanceArn
        self.awsAccountId = awsAccountId
        self.version = version
        self.currentSnapshot = currentSnapshot
        self.previousSnapshot = previousSnapshot
        self.rawJSON = nil
    }
}
