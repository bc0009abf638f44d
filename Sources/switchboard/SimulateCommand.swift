import ArgumentParser
import Foundation
import Roles
import Services

/// `switchboard simulate`: realistic contact-center traffic to Kafka.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Produce simulated calls, agent events and CTRs to Kafka, asking the IVR hook for every call."
    )

    @Option(help: "Seed (overrides SWITCHBOARD_SIMULATOR_SEED).")
    var seed: UInt64?

    @Option(help: "Simulated seconds per wall-clock second (overrides SWITCHBOARD_SIMULATOR_SPEED).")
    var speed: Double?

    @Option(help: "Agents (overrides SWITCHBOARD_SIMULATOR_AGENTS).")
    var agents: Int?

    @Option(
        help:
            "The simulated instant to start at, ISO 8601 with Z or an offset (overrides SWITCHBOARD_SIMULATOR_START; default now)."
    )
    var start: String?

    @Option(
        help: """
            Share of store-days (0...1) whose rate a shock scales to the end of the business day: x1.6 from 11:00 \
            or x0.5 from 17:00, decided by the seed (overrides SWITCHBOARD_SIMULATOR_SHOCKS).
            """)
    var shocks: Double?

    @Option(help: "Base calls per store per hour, shaped by hour of day and day type.")
    var callsPerHour: Double = 6

    @Option(help: "Fixed load: calls per wall-clock second over all stores (replaces the shaped rate).")
    var rate: Double?

    @Option(help: "Wall-clock seconds to run (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "The IVR hook URL (default http://127.0.0.1:<SWITCHBOARD_HTTP_PORT>/v1/hooks/main).")
    var hookURL: String?

    @Option(
        help:
            "kafka (produce directly) or firehose (deliver through the receiver as Amazon Data Firehose does; overrides SWITCHBOARD_SIMULATOR_VIA)."
    )
    var via: String?

    @Option(
        help:
            "The receiver's Firehose base URL for --via firehose (default http://127.0.0.1:<SWITCHBOARD_HTTP_PORT>/v1/firehose)."
    )
    var receiverURL: String?

    @Option(help: "Kafka bootstrap servers (overrides SWITCHBOARD_KAFKA_BOOTSTRAP).")
    var bootstrap: String?

    @Option(help: "HTTP port for /health, /ready and /metrics (overrides SWITCHBOARD_SIMULATOR_HTTP_PORT).")
    var httpPort: Int?

    func validate() throws {
        if let speed, speed <= 0 { throw ValidationError("--speed must be positive") }
        if let agents, agents < 0 { throw ValidationError("--agents must not be negative") }
        if let rate, rate <= 0 { throw ValidationError("--rate must be positive") }
        if let shocks, !(0...1).contains(shocks) { throw ValidationError("--shocks must be within 0...1") }
        if let start, Settings.instant(iso8601: start) == nil {
            throw ValidationError(
                "--start must be an ISO 8601 instant with Z or an offset, e.g. 2026-11-20T11:30:00+09:00")
        }
        if let via, SimulatorRoute(rawValue: via) == nil { throw ValidationError("--via must be kafka or firehose") }
    }

    func run() async throws {
        var settings = try Settings()
        if let httpPort { settings.simulatorHTTPPort = httpPort }
        if let bootstrap { settings.kafkaBootstrap = bootstrap }
        guard !settings.kafkaBootstrap.isEmpty else {
            throw ValidationError("no Kafka: set SWITCHBOARD_KAFKA_BOOTSTRAP or --bootstrap")
        }
        LoggingSetup.bootstrap(settings)
        let url = hookURL ?? "http://127.0.0.1:\(settings.httpPort)/v1/hooks/main"
        guard let hook = URL(string: url) else { throw ValidationError("--hook-url \(url) is not a URL") }
        var options = settings.simulatorOptions(hookURL: hook)
        if let seed { options.seed = seed }
        if let speed { options.speed = speed }
        if let agents { options.agents = agents }
        if let shocks { options.shocks = shocks }
        if let start, let instant = Settings.instant(iso8601: start) { options.start = instant }
        options.callsPerHour = callsPerHour
        options.rate = rate
        options.duration = duration
        if let via { options.via = SimulatorRoute(rawValue: via) ?? .kafka }
        if let receiverURL {
            guard let url = URL(string: receiverURL) else {
                throw ValidationError("--receiver-url \(receiverURL) is not a URL")
            }
            options.receiverURL = url
        }
        try await SimulateRole.build(.bootstrap(settings), options: options).run()
    }
}
