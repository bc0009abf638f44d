import Metrics
import ServiceLifecycle

/// Evaluates the readiness checks every `interval` and exports each as the gauge
/// `switchboard_ready{check}` (1 ready, 0 not; all 0 while draining), so alert rules see a
/// dependency flapping without anyone calling `/ready`.
public struct ReadinessGauges: Service {
    let checks: [any ReadinessCheck]
    let drain: ShutdownDrain?
    let interval: Duration

    /// - Parameters:
    ///   - checks: The process's readiness checks.
    ///   - drain: The process's drain state, if it drains.
    ///   - interval: How often to evaluate them.
    public init(checks: [any ReadinessCheck], drain: ShutdownDrain? = nil, interval: Duration = .seconds(5)) {
        self.checks = checks
        self.drain = drain
        self.interval = interval
    }

    public func run() async throws {
        let gauges = Dictionary(
            checks.map { ($0.name, Gauge(label: "switchboard_ready", dimensions: [("check", $0.name)])) },
            uniquingKeysWith: { first, _ in first })
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let draining = drain?.isDraining ?? false
                await withTaskGroup(of: (String, Bool).self) { group in
                    for check in checks {
                        group.addTask { (check.name, await check.check().ready) }
                    }
                    for await (name, ready) in group {
                        gauges[name]?.record(ready && !draining ? 1 : 0)
                    }
                }
                try? await Task.sleep(for: interval)
            }
        }
        for gauge in gauges.values { gauge.record(0) }
    }
}
