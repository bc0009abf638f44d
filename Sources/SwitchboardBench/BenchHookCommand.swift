import ArgumentParser
import Foundation
import Logging
import Metrics
import OperatingHours
import Prometheus
import Roles
import Server
import ServiceLifecycle
import Services

/// `switchboard bench-hook-eval` (hidden): the evaluation micro-benchmark of `make bench-hook`.
///
/// Evaluates the `main` flow for every store at instants spread over two years (open, closed,
/// overnight, holidays, closures) on one thread, then renders the answers, and prints the rates.
/// The last line is `evals_per_s=<n> renders_per_s=<n> evals_and_renders_per_s=<n>`.
struct BenchHookEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-hook-eval",
        abstract: "Measure hook evaluations per second on one thread."
    )

    @Option(help: "The flows/ directory.")
    var dir: String = "flows"

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 2

    @Option(help: "The flow evaluated.")
    var flow: String = "main"

    func run() throws {
        let flows = try FlowStore.load(directory: dir).flows
        // 2026-01-01T00:00:00+09:00, then steps of 5 days 7 h 13 min: every time of day and weekday.
        let start = 1_767_193_200.0
        let instants = (0..<128).map { Date(timeIntervalSince1970: start + Double($0) * (5 * 86_400 + 26_000)) }
        let calls = flows.stores.flatMap { store in instants.map { (store.id, $0) } }

        func measure(_ label: String, _ body: (Int) -> Int) -> Double {
            var count = 0
            var sink = 0
            let clock = ContinuousClock()
            let began = clock.now
            let deadline = began + .milliseconds(Int(seconds * 1000))
            while clock.now < deadline {
                for index in 0..<calls.count { sink &+= body(index) }
                count += calls.count
            }
            let elapsed = began.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = Double(count) / seconds
            print(
                "\(label): \(count) in \(String(format: "%.2f", seconds)) s = \(Int(rate)) per second "
                    + "(checksum \(sink))")
            return rate
        }

        let evaluations = measure("evaluations") { index in
            let (store, at) = calls[index]
            let answer = flows.evaluate(
                flowName: flow, storeId: store, dialedNumber: nil, contactAttributes: [:], parameters: [:], at: at)
            return answer.result == .open ? 1 : 0
        }
        let answers = calls.map { store, at in
            flows.evaluate(
                flowName: flow, storeId: store, dialedNumber: nil, contactAttributes: [:], parameters: [:], at: at)
        }
        let meanBytes = answers.reduce(0) { $0 + $1.jsonBytes.count } / max(answers.count, 1)
        let renders = measure("renders (JSON, mean \(meanBytes) bytes)") { index in
            answers[index].jsonBytes.count
        }
        let both = measure("evaluations + renders") { index in
            let (store, at) = calls[index]
            return flows.evaluate(
                flowName: flow, storeId: store, dialedNumber: nil, contactAttributes: [:], parameters: [:], at: at
            ).jsonBytes.count
        }
        print(
            "\(calls.count) calls (\(flows.stores.count) stores x \(instants.count) instants), flow \(flow), one thread"
        )
        print("evals_per_s=\(Int(evaluations)) renders_per_s=\(Int(renders)) evals_and_renders_per_s=\(Int(both))")
    }
}

/// `switchboard bench-hook-serve` (hidden): an HTTP server with the hook only (no database, no
/// Kafka): hook, hours, calendar, `/openapi.yaml`, `/v1/ping`, health, readiness and metrics.
/// The load tests and the fuzzer of the hook run against it.
struct BenchHookServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-hook-serve",
        abstract: "Serve only the IVR hook and its MCP tools (for load tests and fuzzing)."
    )

    @Option(help: "HTTP port (overrides SWITCHBOARD_HTTP_PORT).")
    var httpPort: Int?

    func run() async throws {
        var settings = try Settings()
        if let httpPort { settings.httpPort = httpPort }
        LoggingSetup.bootstrap(settings)
        let logger = Logger(label: "switchboard")
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        HookWiring.configureMetrics(&factory)
        MetricsSystem.bootstrap(factory)

        let hook = HookWiring(settings: settings, logger: logger)
        let application = buildApplication(
            configuration: ServerConfiguration(
                host: settings.httpHost, port: settings.httpPort, limits: settings.httpLimits),
            dependencies: ServerDependencies(
                readinessChecks: [hook.readinessCheck],
                metricsRegistry: registry,
                routeProviders: hook.routeProviders
                    + [MCPWiring(settings: settings, hook: hook, floor: nil, open: true, logger: logger).routes]
            ),
            logger: Logger(label: "switchboard.http")
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: hook.reloadService), .init(service: application)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        logger.info(
            "hook serving on http://\(settings.httpHost):\(settings.httpPort) with flows from \(settings.flowsDirectory)"
        )
        try await group.run()
    }
}
