import Foundation

/// The settings of the floor reducer. Every value has a documented default.
public struct FloorConfiguration: Sendable, Hashable {
    /// A contact answered within this wait counts as "answered within threshold" for the
    /// service level (inclusive: a wait of exactly the threshold counts). Default 20 s.
    public var serviceLevelThreshold: Duration
    /// The time zone of the business day: today's counters reset at midnight there.
    /// Default `Asia/Tokyo`.
    public var timeZone: TimeZone
    /// An open contact with no event for this long is closed out by a tick (contact events are
    /// best effort, a lost `DISCONNECTED` must not leave a caller waiting forever). A closed-out
    /// contact is not counted as abandoned: nothing says the customer hung up (the analyst
    /// views do not count a contact record without a customer disconnect either). Default 2 hours.
    public var staleContactTimeout: Duration
    /// A finished contact (disconnected, completed or closed out) is kept this long, so a late
    /// or repeated event for it is recognised instead of starting it over; then a tick purges
    /// it. Default 2 hours.
    public var finishedContactRetention: Duration
    /// An agent with no event for this long is removed by a tick. Agents send a heartbeat every
    /// 120 s, so this only fires when a `LOGOUT` was lost. Default 10 minutes.
    public var staleAgentTimeout: Duration
    /// How many recent event ids of each stream are remembered to drop duplicates.
    /// Default 20 000.
    public var recentEventIDCapacity: Int

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        serviceLevelThreshold: Duration = .seconds(20),
        timeZone: TimeZone = TimeZone(identifier: "Asia/Tokyo")!,
        staleContactTimeout: Duration = .seconds(2 * 3600),
        finishedContactRetention: Duration = .seconds(2 * 3600),
        staleAgentTimeout: Duration = .seconds(600),
        recentEventIDCapacity: Int = 20_000
    ) {
        self.serviceLevelThreshold = serviceLevelThreshold
        self.timeZone = timeZone
        self.staleContactTimeout = staleContactTimeout
        self.finishedContactRetention = finishedContactRetention
        self.staleAgentTimeout = staleAgentTimeout
        self.recentEventIDCapacity = recentEventIDCapacity
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
