import ContactCenter

/// A test oracle (it lives in the test support, never in product code, so the product does not
/// grade itself).
///
/// Contact-center metrics of one queue over one interval, computed from CTRs.
///
/// These are the reference definitions the analyst SQL views are tested against:
///
/// - A contact belongs to the interval containing its `Queue.EnqueueTimestamp` (not its
///   `InitiationTimestamp`): service level is about the queue, and a contact that spent a long
///   time in the IVR before queueing should count where it started waiting. Contacts without a
///   queue or without an enqueue time are not counted.
/// - Intervals are aligned to the Unix epoch (`floor(epoch / interval) * interval`), which for
///   15-minute intervals is aligned in every time zone whose offset is a multiple of 15 minutes.
/// - Per `ContactId` only the copy with the greatest `LastUpdateTimestamp` counts; for equal
///   timestamps the later one in the input (the later Kafka offset) wins.
/// - queued: contacts counted. answered: with `Agent.ConnectedToAgentTimestamp`.
///   abandoned: queued and not answered (``ContactTraceRecord/isAbandoned``).
/// - speed of answer of a contact: ``ContactTraceRecord/queueDurationSeconds`` (`Queue.Duration`).
///   answered within threshold: answered and speed of answer ≤ threshold (inclusive).
/// - service level = answered within threshold / queued; abandonment rate = abandoned / queued;
///   average speed of answer = mean speed of answer of answered contacts; average handle time =
///   mean of talk + hold + after-contact work (``ContactTraceRecord/handleTimeSeconds``) of
///   answered contacts; max queued time = the longest queue duration of any queued contact.
public struct QueueIntervalMetrics: Sendable, Hashable, Codable {
    /// The queue ARN (the queue name when a record has no ARN).
    public var queue: String
    /// The queue name of the last record counted, in input order.
    public var queueName: String?
    /// The start of the interval.
    public var intervalStart: UTCTimestamp
    /// The interval length in seconds (900 for 15 minutes).
    public var intervalSeconds: Int
    /// Contacts enqueued in the interval.
    public var queued: Int = 0
    /// Of those, answered by an agent.
    public var answered: Int = 0
    /// Of those, abandoned.
    public var abandoned: Int = 0
    /// Of the answered, answered within the service-level threshold.
    public var answeredWithinThreshold: Int = 0
    /// Sum of the speed of answer of answered contacts, in seconds.
    public var totalSpeedOfAnswerSeconds: Int = 0
    /// Sum of the handle time of answered contacts, in seconds.
    public var totalHandleTimeSeconds: Int = 0
    /// The longest queue duration of any queued contact, in seconds; `nil` when unknown.
    public var maxQueuedTimeSeconds: Int?

    /// Creates empty metrics for a queue and interval.
    public init(queue: String, queueName: String?, intervalStart: UTCTimestamp, intervalSeconds: Int) {
        self.queue = queue
        self.queueName = queueName
        self.intervalStart = intervalStart
        self.intervalSeconds = intervalSeconds
    }

    /// Answered within threshold / queued; `nil` when nothing was queued.
    public var serviceLevel: Double? { ratio(answeredWithinThreshold, queued) }

    /// Abandoned / queued; `nil` when nothing was queued.
    public var abandonmentRate: Double? { ratio(abandoned, queued) }

    /// Mean seconds in queue of answered contacts; `nil` when none was answered.
    public var averageSpeedOfAnswerSeconds: Double? { ratio(totalSpeedOfAnswerSeconds, answered) }

    /// Mean talk + hold + after-contact work seconds of answered contacts; `nil` when none was
    /// answered.
    public var averageHandleTimeSeconds: Double? { ratio(totalHandleTimeSeconds, answered) }

    private func ratio(_ numerator: Int, _ denominator: Int) -> Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }
}
