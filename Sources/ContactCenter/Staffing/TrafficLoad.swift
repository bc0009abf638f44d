/// The traffic one queue is offered in one interval: contacts queued, over how long, and how long
/// each keeps an agent.
public struct TrafficLoad: Sendable, Equatable {
    /// Contacts offered (queued: answered + abandoned + callbacks), 0 or more.
    public var volume: Double
    /// The interval's length, seconds.
    public var intervalSeconds: Double
    /// Average handle time (talk + hold + after-contact work), seconds.
    public var averageHandleTimeSeconds: Double

    /// A validated load.
    /// - Throws: `StaffingError` naming the input out of range.
    public init(volume: Double, intervalSeconds: Double, averageHandleTimeSeconds: Double) throws(StaffingError) {
        guard volume.isFinite, volume >= 0 else { throw .volumeOutOfRange(volume) }
        guard intervalSeconds.isFinite, intervalSeconds > 0 else { throw .intervalNotPositive(intervalSeconds) }
        guard averageHandleTimeSeconds.isFinite, averageHandleTimeSeconds > 0 else {
            throw .handleTimeNotPositive(averageHandleTimeSeconds)
        }
        self.volume = volume
        self.intervalSeconds = intervalSeconds
        self.averageHandleTimeSeconds = averageHandleTimeSeconds
    }

    /// A = λ · AHT, Erlangs.
    public var offeredLoad: Double { volume / intervalSeconds * averageHandleTimeSeconds }
}

/// The queueing model behind a staffing figure.
public enum StaffingModel: Sendable, Equatable {
    /// M/M/N: callers wait forever. Overstates agents when callers abandon.
    case erlangC
    /// M/M/N+M: callers hang up after an exponential patience with this mean, seconds.
    case erlangA(patienceSeconds: Double)

    /// `erlang-c` or `erlang-a`.
    public var name: String {
        switch self {
        case .erlangC: "erlang-c"
        case .erlangA: "erlang-a"
        }
    }
}
