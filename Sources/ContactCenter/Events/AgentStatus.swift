/// `AgentStatus {ARN, Name, Type, StartTimestamp}`: the status the agent chose.
public struct AgentStatus: Sendable, Hashable {
    /// `Type`. Unknown types are kept as ``other(_:)``.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// `ROUTABLE`: available for contacts (status "Available").
        case routable
        /// `CUSTOM`: a named non-routable status (break, lunch, training …).
        case custom
        /// `OFFLINE`.
        case offline
        /// Any other value.
        case other(String)

        /// Reads a wire value.
        public init(rawValue: String) {
            switch rawValue {
            case "ROUTABLE": self = .routable
            case "CUSTOM": self = .custom
            case "OFFLINE": self = .offline
            default: self = .other(rawValue)
            }
        }

        /// The wire spelling.
        public var rawValue: String {
            switch self {
            case .routable: return "ROUTABLE"
            case .custom: return "CUSTOM"
            case .offline: return "OFFLINE"
            case .other(let value): return value
            }
        }

        public var description: String { rawValue }
    }

    /// `Name`, e.g. `Available`, `Lunch`, `Offline`.
    public var name: String?
    /// `Type`.
    public var type: Kind
    /// `StartTimestamp`: since when the agent has this status.
    public var startTimestamp: UTCTimestamp?
    /// `ARN` of the status.
    public var arn: String?

    /// Creates a status.
    public init(name: String?, type: Kind, startTimestamp: UTCTimestamp?, arn: String? = nil) {
        self.name = name
        self.type = type
        self.startTimestamp = startTimestamp
        self.arn = arn
    }
}
