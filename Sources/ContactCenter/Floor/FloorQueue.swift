/// A queue on the floor with today's counters.
///
/// Counters count contacts whose enqueue time falls within the current business day, each
/// contact once, whatever order its events arrived in. Waiting contacts are derived from the
/// floor's contacts by ``FloorView``.
public struct FloorQueue: Sendable, Hashable {
    /// The queue ARN.
    public internal(set) var arn: String
    /// The queue name, learnt from agent events (contact events carry only the ARN).
    public internal(set) var name: String?
    /// Contacts queued today.
    public internal(set) var offered: Int = 0
    /// Contacts queued today and connected to an agent.
    public internal(set) var answered: Int = 0
    /// Contacts queued today and answered within the service-level threshold.
    public internal(set) var answeredWithinThreshold: Int = 0
    /// Contacts queued today that were disconnected without reaching an agent and did not move
    /// on to a callback or transfer: Connect's "Contacts abandoned" (real-time metrics).
    public internal(set) var abandoned: Int = 0

    /// Answered within threshold / offered; `nil` before the first contact of the day.
    public var serviceLevel: Double? {
        offered == 0 ? nil : Double(answeredWithinThreshold) / Double(offered)
    }

    /// The name to show: the name, else the last part of the ARN.
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        return arn.split(separator: "/").last.map(String.init) ?? arn
    }

    mutating func add(_ contribution: QueueContribution, sign: Int) {
        offered += sign
        answered += sign * (contribution.answered ? 1 : 0)
        answeredWithinThreshold += sign * (contribution.answeredWithinThreshold ? 1 : 0)
        abandoned += sign * (contribution.abandoned ? 1 : 0)
    }

    var hasCounts: Bool { offered != 0 }
}

/// What one contact adds to its queue's counters today.
struct QueueContribution: Sendable, Hashable {
    var queueArn: String
    var answered: Bool
    var answeredWithinThreshold: Bool
    var abandoned: Bool
}
