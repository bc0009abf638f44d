import ContactCenter

/// Where the floor's events come from: the executable implements it over Kafka, tests over
/// memory. The server never imports the Kafka adapter.
///
/// An implementation runs until cancelled: it rebuilds the recent past, delivers batches to the
/// sink in the order they are to be folded, and says when it has caught up with the present
/// (the floor is not ready before). It retries transient failures itself; a thrown error makes
/// the publisher start it again after a pause.
public protocol FloorEventSource: Sendable {
    /// Delivers events to `sink` until the task is cancelled.
    func run(into sink: FloorFeedSink) async throws
}

/// What a ``FloorEventSource`` hands its events to: the publisher's serial path.
public struct FloorFeedSink: Sendable {
    let publisher: FloorPublisher

    /// Folds a batch of events into the floor, in order. Waits while the publisher is busy, so
    /// a source never runs ahead of the state.
    public func deliver(_ events: [FloorEvent]) async {
        await publisher.ingest(events)
    }

    /// The source has read everything that existed when it started: the floor is ready.
    public func caughtUp() async {
        await publisher.setFeedStatus(.ok("caught up"))
    }

    /// The source is rebuilding or has lost its input: the floor is not ready; `detail` says why.
    public func lagging(_ detail: String) async {
        await publisher.setFeedStatus(.failing(detail))
    }
}
