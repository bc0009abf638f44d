/// `AgentStatus {ARN, Name, Type, StartTimestamp}`: the status the agent chose.
///
/// The agent event streams data model documents `ARN`, `Name` and `StartTimestamp`; `Type`
/// appears on newer streams only, and AWS's published sample events do not carry it. Decoding
/// then derives it from the name with ``Kind/derived(fromName:)``.
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

        /// The type of a status whose record carries no `Type`, derived from its `Name`.
        ///
        /// Amazon Connect has two built-in statuses, `Available` (the only routable one) and
        /// `Offline`; every status an administrator adds is custom (not routable). So
        /// `Available` is ``routable``, `Offline` is ``offline``, and any other name is
        /// ``custom``. A status without a name (only an `ARN`, which does not encode the type)
        /// is ``custom`` too: it is neither built-in status we can recognise, and custom is
        /// the reading that neither routes contacts to the agent nor logs the agent out.
        ///
        /// - Important: Connect lets administrators rename the two built-in statuses. An
        ///   instance that renamed `Available` must stream `Type` (newer streams do), or its
        ///   routable agents read as custom. Names compare exactly, as Connect spells them.
        /// - Parameter name: The status `Name`, if any.
        /// - Returns: The derived type.
        public static func derived(fromName name: String?) -> Kind {
            switch name {
            case "Available": return .routable
            case "Offline": return .offline
            default: return .custom
            }
        }
    }

    /// `Name`, e.g. `Available`, `Lunch`, `Offline`.
    public var name: String?
    /// `Type`, or when the record has none, ``Kind/derived(fromName:)`` of ``name``.
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
