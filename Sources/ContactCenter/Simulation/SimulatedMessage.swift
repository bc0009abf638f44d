import Foundation

/// One Kafka message the ``TrafficSimulation`` produced, in wire format.
public struct SimulatedMessage: Sendable, Hashable {
    /// Which topic the message belongs on.
    public enum Kind: Sendable, Hashable {
        /// A contact trace record (`contact-records`, key = ContactId).
        case contactRecord
        /// An agent event (`agent-events`, key = agent ARN).
        case agentEvent
        /// A contact event (`contact-events`, key = ContactId).
        case contactEvent
    }

    /// The topic kind.
    public var kind: Kind
    /// The message key.
    public var key: String
    /// The message value: the JSON the platform would send.
    public var value: Data
    /// The simulated instant the message is produced at.
    public var at: UTCTimestamp

    /// Creates a message.
    public init(kind: Kind, key: String, value: Data, at: UTCTimestamp) {
        self.kind = kind
        self.key = key
        self.value = value
        self.at = at
    }
}

/// What a ``TrafficSimulation`` has done so far.
public struct SimulationCounters: Sendable, Hashable {
    /// Calls that arrived.
    public var arrivals = 0
    /// Calls that ended in the flow because the store was closed.
    public var closedInFlow = 0
    /// Calls put in a queue.
    public var queued = 0
    /// Queued calls an agent answered.
    public var answered = 0
    /// Queued calls whose caller hung up before an agent answered.
    public var abandoned = 0
    /// Queued callers who asked for a callback instead of waiting (a `CALLBACK` contact follows).
    public var callbacks = 0
    /// Queued calls the queue flow moved to the overflow queue (a `QUEUE_TRANSFER` contact follows).
    public var queueTransfers = 0
    /// Answered calls an agent transferred to the overflow queue (a `TRANSFER` contact follows).
    public var transfers = 0
    /// Answered calls an agent transferred out to an external number (`TransferCompletedTimestamp`).
    public var externalTransfers = 0
    /// CTR messages, first copies, updates and duplicates together.
    public var ctrsEmitted = 0
    /// Exact duplicate CTR messages.
    public var duplicates = 0
    /// Re-emitted CTR updates.
    public var updates = 0

    /// No counts.
    public init() {}
}

/// What the simulation asks of the world around it.
///
/// The executable asks the IVR hook over HTTP; tests answer in memory.
public protocol TrafficEnvironment {
    /// Whether the store's flow keeps the caller (open) or ends the call (closed), asked once per
    /// arrival like a real IVR asks its hook.
    func isOpen(storeId: String, at instant: UTCTimestamp) async -> Bool

    /// How much busier than an ordinary day the store's day is at `instant` (holidays and
    /// pre-holidays are busier); 1 for an ordinary day.
    func dayMultiplier(storeId: String, at instant: UTCTimestamp) -> Double
}

extension TrafficEnvironment {
    /// Every day is ordinary.
    public func dayMultiplier(storeId: String, at instant: UTCTimestamp) -> Double { 1 }
}

/// A contact offered to a queue, as `staffing_history` counts it: queued, and then answered,
/// abandoned (the caller hung up waiting) or turned into a callback request. A contact the queue
/// flow moves to another queue is offered there, not here; one still waiting is not counted yet.
public struct SimulatedOffer: Sendable, Hashable {
    /// The queue's ARN.
    public var queue: String
    /// The store whose call it is.
    public var storeId: String
    /// When it was queued.
    public var enqueued: UTCTimestamp

    public init(queue: String, storeId: String, enqueued: UTCTimestamp) {
        self.queue = queue
        self.storeId = storeId
        self.enqueued = enqueued
    }
}
