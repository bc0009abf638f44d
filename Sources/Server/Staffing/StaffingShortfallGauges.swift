import ContactCenter
import Foundation
import Logging
import Metrics
import Primitives
import ServiceLifecycle

/// Exports `switchboard_staffing_shortfall_agents{queue}`: per queue (by name), the agents needed
/// minus the agents staffed over the next hour of the business day's reforecast
/// (``IntradayReforecast/shortfallNextHour``), the figure `GET /v1/staffing/intraday` reports as
/// `shortfall_next_hour` for the same request.
///
/// Every `interval` (60 s), and a second after each 15-minute slot boundary, it asks the intraday
/// source for the outlook of now with the floor's live figures, and sets one gauge per queue:
/// - positive: agents short (the alert `SwitchboardStaffingShortfall` fires at 1 or more);
/// - negative: agents to spare;
/// - 0 where the reforecast gives no shortfall (no slot of the next hour has both agents needed
///   and agents staffed: the queue's stores are closed, or no handle time is known): nothing is
///   known to be short, and the series stays present for the dashboard.
///
/// A queue that leaves the outlook has its gauge removed. While the source fails, the gauges keep
/// their last figures for `staleAfter`, then are removed, so that an outage shows as no series
/// rather than as figures that are no longer true. Failures are logged at most once a minute,
/// through `describe` (which names no secret).
public struct StaffingShortfallGauges: Service {
    /// The gauge's name.
    public static let label = "switchboard_staffing_shortfall_agents"

    let source: any IntradaySource
    let live: (@Sendable ([String: Double]) async -> IntradayLive?)?
    let request: IntradayRequest
    let interval: Duration
    let staleAfter: Double
    let schema: StartupGate
    let executor: (any TaskExecutor)?
    let factory: (any MetricsFactory)?
    let describe: @Sendable (any Error) -> String
    let logger: Logger
    let clock: @Sendable () -> Double

    /// - Parameters:
    ///   - source: The reforecast (the one behind `GET /v1/staffing/intraday`).
    ///   - floor: The live floor's figures; `nil` where no floor runs (the plan's agents count as
    ///     staffed).
    ///   - request: What to ask for; by default the endpoint's defaults: every queue, now, 80/20,
    ///     Erlang A.
    ///   - interval: How often to ask.
    ///   - staleAfter: How long, in seconds, the last figures stand while the source fails.
    ///   - schema: Opens once the database's schema is current; nothing is asked before.
    ///   - executor: Where the reforecast runs (``ComputeExecutor``); `nil`: on the cooperative pool.
    ///   - factory: The metrics factory; `nil`: the process's (`MetricsSystem`).
    ///   - describe: A failure in words, for the log, without secrets.
    ///   - logger: Where failures go.
    ///   - clock: Now, seconds since 1970 (tests).
    public init(
        source: any IntradaySource, floor: FloorStaffing?, request: IntradayRequest = Self.defaultRequest,
        interval: Duration = .seconds(60), staleAfter: Double = 300, schema: StartupGate = .opened(),
        executor: (any TaskExecutor)? = nil, factory: (any MetricsFactory)? = nil,
        describe: @escaping @Sendable (any Error) -> String = { String(describing: type(of: $0)) },
        logger: Logger, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.source = source
        self.live = floor.map { floor in { @Sendable loads in await floor.live(loads: loads) } }
        self.request = request
        self.interval = interval
        self.staleAfter = staleAfter
        self.schema = schema
        self.executor = executor
        self.factory = factory
        self.describe = describe
        self.logger = logger
        self.clock = clock
    }

    /// Every queue, now, 80 % within 20 s, Erlang A: what `GET /v1/staffing/intraday` answers
    /// without parameters.
    public static let defaultRequest = IntradayRequest(
        target: try! ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 20))  // a valid constant

    /// What one process has exported and when it last could.
    struct State {
        /// The gauges set, by queue name.
        var gauges: [String: Gauge] = [:]
        /// The instant of the last outlook read, seconds since 1970.
        var lastSuccess: Double?
        /// The instant of the last failure logged, and the failures since.
        var lastLogged: Double?
        var unlogged = 0
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await schema.wait()
            var state = State()
            while !Task.isCancelled {
                await refresh(&state)
                let seconds = Self.delay(after: clock(), interval: interval.inSeconds)
                try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
            }
            for gauge in state.gauges.values { gauge.destroy() }
        }
    }

    /// Reads the outlook of now and sets, adds and removes the gauges.
    func refresh(_ state: inout State) async {
        let now = clock()
        let outlook: IntradayOutlook
        do {
            outlook = try await withTaskExecutorPreference(executor) {
                try await source.outlook(request, now: now, live: live)
            }
        } catch {
            if Task.isCancelled { return }
            state.unlogged += 1
            if state.lastLogged.map({ now - $0 >= 60 }) ?? true {
                let seen = state.unlogged == 1 ? "" : " (\(state.unlogged) failures since the last report)"
                logger.warning("the staffing shortfall gauges are not updated: \(describe(error))\(seen)")
                state.lastLogged = now
                state.unlogged = 0
            }
            if now - (state.lastSuccess ?? -.infinity) >= staleAfter {
                for gauge in state.gauges.values { gauge.destroy() }
                state.gauges = [:]
            }
            return
        }
        let figures = Self.figures(outlook)
        for (name, value) in figures {
            let gauge =
                state.gauges[name]
                ?? {
                    let dimensions = [("queue", name)]
                    if let factory { return Gauge(label: Self.label, dimensions: dimensions, factory: factory) }
                    return Gauge(label: Self.label, dimensions: dimensions)
                }()
            state.gauges[name] = gauge
            gauge.record(value)
        }
        for name in Set(state.gauges.keys).subtracting(figures.keys) {
            state.gauges.removeValue(forKey: name)?.destroy()
        }
        state.lastSuccess = now
    }

    /// The figure per queue name: its shortfall over the next hour, 0 where there is none; two
    /// queues of one name give the larger.
    static func figures(_ outlook: IntradayOutlook) -> [String: Double] {
        var figures: [String: Double] = [:]
        for queue in outlook.queues {
            let name = outlook.queueNames[queue.queue] ?? queue.queue
            let value = queue.shortfallNextHour.flatMap { $0.isFinite ? $0 : nil } ?? 0
            figures[name] = max(figures[name] ?? value, value)
        }
        return figures
    }

    /// Seconds until the next read: `interval`, or a second past the next 15-minute boundary when
    /// that comes sooner. Every time zone's offset is a whole number of quarter hours, so the
    /// business day's slots start on multiples of 900 s since 1970.
    static func delay(after now: Double, interval: Double) -> Double {
        let slot = Double(DaySlot.minutes * 60)
        let boundary = ((now / slot).rounded(.down) + 1) * slot + 1
        return max(0.1, min(interval, boundary - now))
    }
}
