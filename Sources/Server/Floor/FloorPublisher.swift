import ContactCenter
import Foundation
import Logging
import ServiceLifecycle

/// Owns the floor: folds events into ``FloorState`` on one serial path, publishes each change
/// of the ``FloorView`` as a numbered delta, and fans the deltas out to the stream clients.
///
/// This is the only code path that pushes anything to console clients ("state in, view out"):
/// after a batch of events (coalesced for ``FloorPublisherConfiguration/coalescingInterval``)
/// it computes the view, diffs it with the previous one, drops no-op changes, gives the delta
/// the next sequence number, keeps it in a bounded history for clients that reconnect, and
/// appends it to every subscriber's bounded queue. Appending never waits, so a slow client
/// never delays the publisher or the others: its queue overflows and it gets a fresh snapshot.
///
/// Run it as a `Service`: it runs the event source, the tick and the heartbeat, and ends every
/// subscription on graceful shutdown.
public actor FloorPublisher: Service {
    /// The configuration.
    public nonisolated let configuration: FloorPublisherConfiguration
    /// This instance's epoch, in every message (see ``FloorMessage``).
    public nonisolated let epoch: String
    private nonisolated let source: (any FloorEventSource)?
    private nonisolated let now: @Sendable () -> Date
    private nonisolated let logger: Logger
    private nonisolated let metrics = FloorMetrics()
    private nonisolated let flushSignal: AsyncStream<Void>.Continuation
    private nonisolated let flushRequests: AsyncStream<Void>

    private var floor: FloorState
    private var view: FloorView
    private var seq: UInt64 = 0
    /// The last deltas, oldest first; `history.last.seq == seq` when not empty.
    private var history: [FloorMessage] = []
    private var subscribers: [UInt64: FloorSubscription] = [:]
    private var nextSubscriberID: UInt64 = 0
    private var cachedSnapshot: FloorMessage?
    private var feedStatus: ReadinessStatus
    private var lastFlush: ContinuousClock.Instant?
    private var shutDown = false

    /// Creates a publisher.
    ///
    /// - Parameters:
    ///   - configuration: History, queue sizes and intervals.
    ///   - source: Where events come from; `nil` when events are only ``ingest(_:)``ed directly
    ///     (tests), in which case the floor is ready at once.
    ///   - now: The wall clock passed to the reducer (fixed instants in tests).
    ///   - logger: Where the publisher logs.
    public init(
        configuration: FloorPublisherConfiguration = FloorPublisherConfiguration(),
        source: (any FloorEventSource)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "switchboard.floor")
    ) {
        self.configuration = configuration
        self.source = source
        self.now = now
        self.logger = logger
        self.epoch = String(UInt32.random(in: .min ... .max), radix: 36)
        // Start on the current business day: the first view already has today's date, so the
        // first periodic tick changes nothing and every delta comes from an event (before, the
        // first tick or event rolled the day in, and which one came first depended on timing).
        var floor = FloorState(configuration: configuration.floor)
        floor.reduce(.tick, now: now())
        self.floor = floor
        self.view = FloorView(floor)
        self.feedStatus = source == nil ? .ok("no event source") : .failing("starting")
        (flushRequests, flushSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: - Service

    /// Runs the event source, the tick, the heartbeat and the coalescing publisher until
    /// graceful shutdown or cancellation, then ends every subscription.
    public nonisolated func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.runSource() }
                group.addTask {
                    await self.repeating(every: self.configuration.tickInterval) { await $0.ingest([.tick]) }
                }
                group.addTask {
                    await self.repeating(every: self.configuration.heartbeatInterval) { await $0.sendHeartbeat() }
                }
                group.addTask { await self.runFlusher() }
                await group.waitForAll()
            }
        }
        await endAllSubscriptions()
    }

    private nonisolated func runSource() async {
        guard let source else { return }
        let sink = FloorFeedSink(publisher: self)
        while !Task.isCancelled {
            do {
                try await source.run(into: sink)
                if Task.isCancelled { return }
                logger.warning("floor event source ended; starting it again")
            } catch {
                if Task.isCancelled { return }
                logger.error("floor event source failed: \(error)")
                await setFeedStatus(.failing("event source failed: \(error)"))
            }
            try? await Task.sleep(for: configuration.sourceRestartDelay)
        }
    }

    private nonisolated func repeating(every interval: Duration, _ body: (FloorPublisher) async -> Void) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            await body(self)
        }
    }

    /// Publishes at most once per coalescing interval, at once after a quiet period.
    private nonisolated func runFlusher() async {
        let clock = ContinuousClock()
        for await _ in flushRequests {
            if let last = await lastFlush {
                let due = last + configuration.coalescingInterval
                if clock.now < due {
                    do { try await clock.sleep(until: due) } catch { return }
                }
            }
            await publish()
        }
    }

    // MARK: - Input

    /// Folds `events` into the floor in order, then publishes the change (at once when the
    /// coalescing interval is zero, else within it).
    public func ingest(_ events: [FloorEvent]) {
        guard !events.isEmpty else { return }
        let instant = now()
        for event in events { floor.reduce(event, now: instant) }
        metrics.events.increment(by: events.count)
        if configuration.coalescingInterval == .zero {
            publish()
        } else {
            flushSignal.yield()
        }
    }

    func setFeedStatus(_ status: ReadinessStatus) {
        // Ready means the published view holds everything folded so far.
        if status.ready { publish() }
        if status.ready != feedStatus.ready { logger.info("floor feed: \(status.detail)") }
        feedStatus = status
    }

    /// Whether the floor has caught up with its event source, for `/ready`.
    public func readiness() -> ReadinessStatus { feedStatus }

    // MARK: - Publishing

    /// Computes the view and, when it changed, publishes the delta to history and subscribers.
    public func publish() {
        lastFlush = ContinuousClock.now
        let next = FloorView(floor)
        guard let delta = FloorView.diff(from: view, to: next) else { return }
        seq += 1
        view = next
        cachedSnapshot = nil
        let message = FloorMessage.delta(delta, seq: seq, epoch: epoch)
        history.append(message)
        if history.count > configuration.historyCapacity {
            history.removeFirst(history.count - configuration.historyCapacity)
        }
        metrics.deltas.increment()
        fanOut(message)
    }

    private func sendHeartbeat() {
        fanOut(.heartbeat(seq: seq, epoch: epoch))
    }

    private func fanOut(_ message: FloorMessage) {
        var finished: [UInt64] = []
        for (id, subscriber) in subscribers {
            if subscriber.isFinished {
                finished.append(id)
            } else if !subscriber.push(message) {
                metrics.resnapshots.increment()
                logger.debug("console client \(id) fell behind: queue dropped, snapshot follows")
            }
        }
        for id in finished { subscribers[id] = nil }
        if !finished.isEmpty { metrics.clients.record(subscribers.count) }
    }

    /// The current view as a snapshot message (encoded once per sequence number).
    public func snapshot() -> FloorMessage {
        if let cachedSnapshot { return cachedSnapshot }
        let message = FloorMessage.snapshot(view, seq: seq, epoch: epoch)
        cachedSnapshot = message
        return message
    }

    /// The current view and its sequence number.
    public func currentView() -> (seq: UInt64, view: FloorView) { (seq, view) }

    // MARK: - Subscribers

    /// Adds a client. Its queue starts with exactly the deltas after `cursor` when the history
    /// still has them all, else with a snapshot of the current view.
    ///
    /// - Returns: The subscription; end it with ``unsubscribe(_:)``.
    public func subscribe(since cursor: FloorCursor? = nil) -> FloorSubscription {
        nextSubscriberID += 1
        let subscription = FloorSubscription(id: nextSubscriberID, capacity: configuration.subscriberQueueCapacity)
        if shutDown {
            subscription.finish()
            return subscription
        }
        if let cursor, let missed = deltas(after: cursor) {
            subscription.reset(to: missed)
            metrics.resumedFromHistory.increment()
        } else {
            subscription.reset(to: [snapshot()])
            if cursor != nil { metrics.resumedBySnapshot.increment() }
        }
        subscribers[subscription.id] = subscription
        metrics.clients.record(subscribers.count)
        return subscription
    }

    /// Whether another client may subscribe (``FloorPublisherConfiguration/maxSubscribers``).
    public var hasRoom: Bool { subscribers.count < configuration.maxSubscribers }

    /// ``subscribe(since:)`` when there is room for another client, else `nil`.
    public func subscribeIfRoom(since cursor: FloorCursor? = nil) -> FloorSubscription? {
        hasRoom ? subscribe(since: cursor) : nil
    }

    /// Refills an overflowed subscription with a fresh snapshot; the deltas after it follow.
    public func resnapshot(_ subscription: FloorSubscription) {
        subscription.reset(to: [snapshot()])
    }

    /// Removes a client and ends its subscription.
    public func unsubscribe(_ subscription: FloorSubscription) {
        subscription.finish()
        if subscribers.removeValue(forKey: subscription.id) != nil {
            metrics.clients.record(subscribers.count)
        }
    }

    /// The number of connected clients.
    public var subscriberCount: Int { subscribers.count }

    /// The deltas after `cursor`, or `nil` when they are not all in the history (or the cursor
    /// is from another epoch, or from the future).
    private func deltas(after cursor: FloorCursor) -> [FloorMessage]? {
        if let epoch = cursor.epoch, epoch != self.epoch { return nil }
        guard cursor.seq <= seq else { return nil }
        if cursor.seq == seq { return [] }
        guard let oldest = history.first, oldest.seq <= cursor.seq + 1 else { return nil }
        return Array(history[Int(cursor.seq + 1 - oldest.seq)...])
    }

    private func endAllSubscriptions() {
        shutDown = true
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers.removeAll()
        metrics.clients.record(0)
    }
}
