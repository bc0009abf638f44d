import Prometheus

/// What the HTTP server serves, provided by the executable.
///
/// Each role contributes its part: readiness checks always; metrics when a registry is set.
/// Later parts (hook, console streams) are optional so that one binary can serve any subset.
public struct ServerDependencies: Sendable {
    /// Dependencies whose health decides `/ready`.
    public var readinessChecks: [any ReadinessCheck]
    /// The registry `/metrics` renders in Prometheus's text format.
    public var metricsRegistry: PrometheusCollectorRegistry?

    /// Creates the dependencies.
    public init(readinessChecks: [any ReadinessCheck] = [], metricsRegistry: PrometheusCollectorRegistry? = nil) {
        self.readinessChecks = readinessChecks
        self.metricsRegistry = metricsRegistry
    }
}
