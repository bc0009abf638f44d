import AsyncHTTPClient
import ContactCenter
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import OperatingHours
import Primitives
import ServiceLifecycle

/// What `switchboard simulate` and `switchboard dev` tell the traffic simulator.
public struct SimulatorOptions: Sendable {
    /// The seed of the simulation.
    public var seed: UInt64
    /// Simulated seconds per wall-clock second.
    public var speed: Double
    /// Agents logged in.
    public var agents: Int
    /// Base calls per store per hour (shaped by hour of day and day type).
    public var callsPerHour: Double
    /// Fixed load: calls per wall-clock second over all stores, flat, instead of the shaped rate.
    public var rate: Double?
    /// Wall-clock seconds to run; `nil` until stopped.
    public var duration: Double?
    /// The IVR hook the simulated IVR calls for every arrival.
    public var hookURL: URL
    /// Bearer token for the hook, if it needs one.
    public var hookToken: String?
    /// The simulated instant to start at.
    public var start: Date
    /// How messages reach Kafka: directly, or through the receiver as Firehose delivers them.
    public var via: SimulatorRoute
    /// The receiver's Firehose base URL (`…/v1/firehose`), for ``via`` `firehose`.
    public var receiverURL: URL?
    /// The receiver's access key, if it needs one.
    public var receiverAccessKey: String?
    /// The share of store-days with a shock (``TrafficShocks``, decided by ``seed``); 0: none.
    public var shocks: Double

    /// - Parameters: see the properties.
    public init(
        seed: UInt64, speed: Double, agents: Int, callsPerHour: Double, rate: Double?, duration: Double?,
        hookURL: URL, hookToken: String?, start: Date, via: SimulatorRoute = .kafka, receiverURL: URL? = nil,
        receiverAccessKey: String? = nil, shocks: Double = 0
    ) {
        self.shocks = shocks
        self.via = via
        self.receiverURL = receiverURL
        self.receiverAccessKey = receiverAccessKey
        self.seed = seed
        self.speed = speed
        self.agents = agents
        self.callsPerHour = callsPerHour
        self.rate = rate
        self.duration = duration
        self.hookURL = hookURL
        self.hookToken = hookToken
        self.start = start
    }
}

/// Runs the ``TrafficSimulation`` in (scaled) real time and hands its messages to Kafka,
/// directly (`kafka`, a sink Roles builds over the producer) or through the receiver
/// (``SimulatorOptions/via``).
///
/// Waits until the HTTP server at the hook's address answers `/health`, loads the stores of
/// `flows/`, then advances simulated time by `speed` × the wall-clock time elapsed, five times a
/// second. Stops on graceful shutdown or after `duration`; errors are logged, never thrown, so a
/// broken simulator does not stop `switchboard dev`.
public struct SimulatorService: Service {
    var options: SimulatorOptions
    var flowsDirectory: String
    var kafka: any SimulatorSink
    var logger: Logger
    var metrics = SimulatorMetrics()

    /// - Parameters:
    ///   - options: What to simulate.
    ///   - flowsDirectory: The `flows/` whose stores are simulated.
    ///   - kafka: Where messages go when ``SimulatorOptions/via`` is `kafka`; finished when the
    ///     simulation ends, whichever route it took.
    public init(options: SimulatorOptions, flowsDirectory: String, kafka: any SimulatorSink, logger: Logger) {
        self.options = options
        self.flowsDirectory = flowsDirectory
        self.kafka = kafka
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await simulate() }
        } catch is CancellationError {
        } catch {
            logger.error("simulator stopped: \(error)")
        }
        await kafka.finish()
    }

    private func simulate() async throws {
        try await waitForHealth()
        let flows = try FlowStore.load(directory: flowsDirectory).flows
        let stores = flows.simulatedStores
        var configuration = TrafficSimulationConfiguration(
            stores: stores,
            agentCount: options.agents,
            seed: options.seed,
            start: UTCTimestamp(options.start),
            callsPerHourPerStore: options.callsPerHour
        )
        configuration.routingProfiles = TrafficSimulationConfiguration.restaurantProfiles(
            stores: stores, overflowQueue: configuration.overflowQueue)
        if options.shocks > 0 { configuration.shocks = TrafficShocks(share: options.shocks, seed: options.seed) }
        if let rate = options.rate, !stores.isEmpty {
            configuration.callsPerHourPerStore = rate * 3_600 / options.speed / Double(stores.count)
            configuration.hourlyShape = Array(repeating: 1, count: 24)
            configuration.maximumDayMultiplier = 1
        }
        let environment = HookEnvironment(
            hookURL: options.hookURL, token: options.hookToken, flows: flows, logger: logger, metrics: metrics)
        var simulation = TrafficSimulation(configuration: configuration)
        let sink: any SimulatorSink
        switch (options.via, options.receiverURL) {
        case (.firehose, let url?):
            sink = FirehoseSimulatorSink(
                client: FirehoseClient(baseURL: url, accessKey: options.receiverAccessKey), logger: logger)
        default:
            sink = kafka
        }
        logger.info(
            "simulating \(stores.count) stores, \(options.agents) agents in \(configuration.routingProfiles.count) routing profiles at \(options.speed)x from \(configuration.start), via \(options.via.rawValue)"
        )
        let clock = ContinuousClock()
        let began = clock.now
        var reported = clock.now
        while !Task.isCancelled {
            let elapsed = began.duration(to: clock.now)
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let target = configuration.start.adding(milliseconds: Int64(wall * options.speed * 1_000))
            let before = simulation.counters
            let messages = await simulation.advance(to: target, environment: environment)
            try await sink.deliver(messages)
            for message in messages { metrics.produced(message.kind) }
            metrics.advanced(from: before, to: simulation.counters, at: target)
            if reported.duration(to: clock.now) > .seconds(60) {
                reported = clock.now
                logger.info("simulator: \(simulation.counters)")
            }
            if let duration = options.duration, wall >= duration { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        logger.info("simulator finished: \(simulation.counters)")
    }

    /// Polls `/health` next to the hook until it answers 200.
    private func waitForHealth() async throws {
        guard let health = URL(string: "/health", relativeTo: options.hookURL)?.absoluteURL else { return }
        let request = HTTPClientRequest(url: health.absoluteString)
        while true {
            if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)),
                response.status == .ok
            {
                return
            }
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}

/// The simulation's view of the world: the IVR hook over HTTP, and the stores' calendars.
struct HookEnvironment: TrafficEnvironment {
    var hookURL: URL
    var token: String?
    var flows: FlowSet
    var logger: Logger
    var metrics: SimulatorMetrics

    /// Asks the hook like an IVR would; any failure counts as open (and is logged), as a flow's
    /// error branch would usually queue the caller.
    func isOpen(storeId: String, at instant: UTCTimestamp) async -> Bool {
        var request = HTTPClientRequest(url: hookURL.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        do {
            let body: [String: String] = ["storeId": storeId, "at": instant.iso8601]
            request.body = .bytes(ByteBuffer(data: try JSONCoding.encode(body)))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(3))
            let data = Data(buffer: try await response.body.collect(upTo: 64 << 10))
            // The hook answers a flat object of strings (Connect's STRING_MAP).
            let answer = try? JSONCoding.decode([String: String].self, from: data)
            guard let result = answer?["result"] else {
                logger.warning("hook answer for \(storeId) has no result; treating the store as open")
                metrics.hookAnswered(open: nil)
                return true
            }
            if result == "error" {
                logger.warning(
                    "hook answered an error for \(storeId) (\(answer?["error"] ?? "-")); treating it as open")
                metrics.hookAnswered(open: nil)
                return true
            }
            metrics.hookAnswered(open: result != "closed")
            return result != "closed"
        } catch {
            logger.warning("hook call for \(storeId) failed (\(error)); treating the store as open")
            metrics.hookAnswered(open: nil)
            return true
        }
    }

    func dayMultiplier(storeId: String, at instant: UTCTimestamp) -> Double {
        flows.trafficMultiplier(storeId: storeId, at: instant)
    }
}
