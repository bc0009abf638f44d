import Foundation

/// An Amazon Connect contact trace record (CTR), format version `2017-03-10`.
///
/// The model holds the fields Switchboard reads; every other field (`Recording`, `Recordings`,
/// `MediaStreams`, `References`, `ContactDetails`, `SegmentAttributes`, `Campaign`,
/// `QualityMetrics`, `Tags`, `Agent.DeviceInfo`, fields Amazon adds later) survives in
/// ``rawJSON`` (the bytes received, or the same value in `jsonb`'s member order), which the
/// ingest stores as `jsonb`.
///
/// Decode with ``init(jsonData:)``; produce wire JSON with ``jsonData()``.
///
/// - Important: A CTR is re-emitted when it is updated, sometimes days later. Per `ContactId`
///   the copy with the greatest ``lastUpdateTimestamp`` wins; equal timestamps are broken by the
///   later Kafka offset (see docs/ingest.md, "Exactly once into PostgreSQL").
public struct ContactTraceRecord: Sendable, Hashable {
    /// The only format version Amazon Connect has published.
    public static let formatVersion = "2017-03-10"

    /// `ContactId`: the contact's identifier, never empty.
    public var contactId: String
    /// `InitialContactId`: the first contact of a chain (transfers, callbacks, queue
    /// transfers); `nil` on the first contact itself.
    public var initialContactId: String?
    /// `PreviousContactId`: the contact this one continues (the transferring contact, or the
    /// contact whose customer asked for this callback); `nil` on the first contact.
    public var previousContactId: String?
    /// `NextContactId`: the contact that continues this one (a transfer or a queued callback);
    /// `nil` on the last contact of a chain.
    public var nextContactId: String?
    /// `Channel`.
    public var channel: ContactChannel?
    /// `InitiationMethod`: `INBOUND`, `OUTBOUND`, `TRANSFER`, `QUEUE_TRANSFER`, `CALLBACK`,
    /// `API`, `DISCONNECT`, `MONITOR`, … (an open set, spelled as on the wire).
    public var initiationMethod: String?
    /// `InitiationTimestamp`: when the contact began.
    public var initiationTimestamp: UTCTimestamp?
    /// `ConnectedToSystemTimestamp`.
    public var connectedToSystemTimestamp: UTCTimestamp?
    /// `DisconnectTimestamp`.
    public var disconnectTimestamp: UTCTimestamp?
    /// `DisconnectReason`: `CUSTOMER_DISCONNECT`, `AGENT_DISCONNECT`, … (often null).
    public var disconnectReason: String?
    /// `LastUpdateTimestamp`, the version of this copy of the record.
    ///
    /// When the member is absent, decoding falls back to `DisconnectTimestamp`, then to
    /// `InitiationTimestamp`, so every record has a version for the upsert guard.
    public var lastUpdateTimestamp: UTCTimestamp
    /// `CustomerEndpoint`.
    public var customerEndpoint: Endpoint?
    /// `SystemEndpoint`: the number or address the customer reached.
    public var systemEndpoint: Endpoint?
    /// `Attributes`, the contact attributes set by flows.
    ///
    /// Amazon Connect writes strings only; should another producer write a number, boolean,
    /// array or object, the value is kept as its JSON text (`42`, `true`, `["a"]`) rather than
    /// rejected, and `null` values are dropped. The raw JSON keeps the original either way.
    public var attributes: [String: String]
    /// `Queue`, absent when the contact never entered a queue.
    public var queue: Queue?
    /// `Agent`, absent (null) when no agent handled the contact.
    public var agent: Agent?
    /// `AgentConnectionAttempts`: how many times Amazon Connect tried to connect the contact to
    /// an agent (offers that rang out, were missed or failed count too).
    public var agentConnectionAttempts: Int?
    /// `TransferCompletedTimestamp`: when the endpoint the contact was transferred to out of
    /// Amazon Connect (an external number) connected; `nil` when it was not transferred out.
    public var transferCompletedTimestamp: UTCTimestamp?
    /// `TransferredToEndpoint`: the endpoint the contact was transferred to out of Amazon
    /// Connect. A phone number: mask it before showing it to analysts.
    public var transferredToEndpoint: Endpoint?
    /// The exact bytes this record was decoded from, or the same JSON value in `jsonb`'s member
    /// order (``RawJSONForm``); `nil` for records built in memory.
    public var rawJSON: Data?

    /// Creates a record in memory, e.g. for the traffic simulator or tests.
    public init(
        contactId: String,
        initialContactId: String? = nil,
        previousContactId: String? = nil,
        nextContactId: String? = nil,
        channel: ContactChannel? = .voice,
        initiationMethod: String? = "INBOUND",
        initiationTimestamp: UTCTimestamp?,
        connectedToSystemTimestamp: UTCTimestamp? = nil,
        disconnectTimestamp: UTCTimestamp? = nil,
        disconnectReason: String? = nil,
        lastUpdateTimestamp: UTCTimestamp,
        customerEndpoint: Endpoint? = nil,
        systemEndpoint: Endpoint? = nil,
        attributes: [String: String] = [:],
        queue: Queue? = nil,
        agent: Agent? = nil,
        agentConnectionAttempts: Int? = nil,
        transferCompletedTimestamp: UTCTimestamp? = nil,
        transferredToEndpoint: Endpoint? = nil
    ) {
        self.contactId = contactId
        self.initialContactId = initialContactId
        self.previousContactId = previousContactId
        self.nextContactId = nextContactId
        self.channel = channel
        self.initiationMethod = initiationMethod
        self.initiationTimestamp = initiationTimestamp
        self.connectedToSystemTimestamp = connectedToSystemTimestamp
        self.disconnectTimestamp = disconnectTimestamp
        self.disconnectReason = disconnectReason
        self.lastUpdateTimestamp = lastUpdateTimestamp
        self.customerEndpoint = customerEndpoint
        self.systemEndpoint = systemEndpoint
        self.attributes = attributes
        self.queue = queue
        self.agent = agent
        self.agentConnectionAttempts = agentConnectionAttempts
        self.transferCompletedTimestamp = transferCompletedTimestamp
        self.transferredToEndpoint = transferredToEndpoint
        self.rawJSON = nil
    }

    /// The attribute that names the restaurant: `Attributes["storeId"]`, set by the IVR flow
    /// from the hook's answer. `nil` when absent or empty.
    public var storeId: String? { Self.storeId(in: attributes) }

    /// ``storeId`` of a record with `attributes`.
    public static func storeId(in attributes: [String: String]) -> String? {
        guard let value = attributes["storeId"], !value.isEmpty else { return nil }
        return value
    }

    /// Whether the contact was answered: an agent connected
    /// (`Agent.ConnectedToAgentTimestamp` is set).
    public var isAnswered: Bool { agent?.connectedToAgentTimestamp != nil }

    /// Whether the contact was abandoned, by Amazon Connect's definition: the customer
    /// disconnected while in queue. It has a `Queue` with an `EnqueueTimestamp`, no
    /// `Agent.ConnectedToAgentTimestamp`, was not moved on (no `NextContactId`: a callback, queue
    /// transfer or transfer; no `TransferCompletedTimestamp`), and its `DisconnectReason` is
    /// `CUSTOMER_DISCONNECT`. The analyst views (`contact_outcome.abandoned`) apply the same rule.
    public var isAbandoned: Bool {
        queue?.enqueueTimestamp != nil && !isAnswered && nextContactId == nil && transferCompletedTimestamp == nil
            && disconnectReason == "CUSTOMER_DISCONNECT"
    }

    /// Seconds the contact waited in queue: `Queue.Duration`, or when absent the time from
    /// `EnqueueTimestamp` to `DequeueTimestamp` (else to `Agent.ConnectedToAgentTimestamp`),
    /// rounded down to whole seconds. `nil` when the contact was not queued.
    public var queueDurationSeconds: Int? {
        guard let queue, let enqueued = queue.enqueueTimestamp else { return nil }
        if let duration = queue.duration { return duration }
        guard let left = queue.dequeueTimestamp ?? agent?.connectedToAgentTimestamp else { return nil }
        return Int(max(0, left.milliseconds(since: enqueued)) / 1000)
    }

    /// Handle time in seconds of an answered contact: talk (`AgentInteractionDuration`) + hold
    /// (`CustomerHoldDuration`) + after-contact work (`AfterContactWorkDuration`), missing parts
    /// counting as zero. `nil` when not answered.
    public var handleTimeSeconds: Int? {
        guard let agent, agent.connectedToAgentTimestamp != nil else { return nil }
        return (agent.agentInteractionDuration ?? 0) + (agent.customerHoldDuration ?? 0)
            + (agent.afterContactWorkDuration ?? 0)
    }
}
