import ContactCenter
import Foundation

/// Settings of the ``FloorPublisher``. Every value has a documented default.
public struct FloorPublisherConfiguration: Sendable {
    /// The reducer's settings (service-level threshold, time zone, timeouts).
    public var floor: FloorConfiguration
    /// How many recent deltas are kept for clients resuming with `since`. Default 1,000
    /// (at most 25 s of a busy floor at the default coalescing, minutes of a quiet one).
    public var historyCapacity: Int
    /// How many messages may wait for one client before its queue is dropped and it gets a fresh
    /// snapshot instead. Default 256.
    public var subscriberQueueCapacity: Int
    /// Changes within this interval after a publish are folded into one delta, so a burst of
    /// events costs one message per client. The first change after a quiet period goes out at
    /// once. Default 25 ms; zero publishes after every batch.
    public var coalescingInterval: Duration
    /// How often a `tick` is folded (stale contacts, silent agents, the business day). Default 1 s.
    public var tickInterval: Duration
    /// How often an idle stream carries a heartbeat. Default 15 s.
    public var heartbeatInterval: Duration
    /// How long to wait before starting a failed event source again. Default 2 s.
    public var sourceRestartDelay: Duration
    /// The most stream clients at once; more are refused with 503. Default 1,000.
    public var maxSubscribers: Int

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        floor: FloorConfiguration = FloorConfiguration(),
        historyCapacity: Int = 1_000,
        subscriberQueueCapacity: Int = 256,
        coalescingInterval: Duration = .milliseconds(25),
        tickInterval: Duration = .seconds(1),
        heartbeatInterval: Duration = .seconds(15),
        sourceRestartDelay: Duration = .seconds(2),
        maxSubscribers: Int = 1_000
    ) {
        self.floor = floor
        self.historyCapacity = max(1, historyCapacity)
        self.subscriberQueueCapacity = max(1, subscriberQueueCapacity)
        self.coalescingInterval = coalescingInterval
        self.tickInterval = tickInterval
        self.heartbeatInterval = heartbeatInterval
        self.sourceRestartDelay = sourceRestartDelay
        self.maxSubscribers = max(1, maxSubscribers)
    }
}
