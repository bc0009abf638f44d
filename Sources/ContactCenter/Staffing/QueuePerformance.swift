/// What a queue achieves with a given number of agents, as the model predicts it.
///
/// Two service levels, labelled: `serviceLevel` is answered within X over offered;
/// `connectServiceLevel` is Amazon Connect's "Service level X": contacts removed from the queue
/// (answered, abandoned or callback) within X over contacts queued. Without abandonment they agree.
public struct QueuePerformance: Sendable, Equatable {
    /// A = λ · AHT, Erlangs.
    public var offeredLoad: Double
    /// N, agents on the queue.
    public var agents: Int
    /// Answered within X over offered, 0–1.
    public var serviceLevel: Double
    /// Removed from the queue within X over queued (Connect's definition), 0–1.
    public var connectServiceLevel: Double
    /// The share of contacts that wait at all (find every agent busy).
    public var probabilityOfWaiting: Double
    /// Mean wait of answered contacts, seconds; nil when the queue grows without bound (Erlang C
    /// with N ≤ A) or nobody is answered.
    public var averageSpeedOfAnswerSeconds: Double?
    /// The share of time agents are busy: A · (1 − P(abandon)) / N.
    public var occupancy: Double
    /// The share of contacts that hang up before an answer (Erlang A only; nil for Erlang C).
    public var probabilityOfAbandoning: Double?

    /// The figures of a queue offered nothing.
    static func idle(agents: Int, abandonment: Bool) -> QueuePerformance {
        QueuePerformance(
            offeredLoad: 0, agents: agents, serviceLevel: 1, connectServiceLevel: 1, probabilityOfWaiting: 0,
            averageSpeedOfAnswerSeconds: 0, occupancy: 0, probabilityOfAbandoning: abandonment ? 0 : nil)
    }
}
