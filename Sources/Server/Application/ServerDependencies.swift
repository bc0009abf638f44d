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
    /// The features served besides health and metrics, each adding its own routes.
    public var routeProviders: [any RouteProvider]

    /// Creates the dependencies.
    public init(
        readinessChecks: [any ReadinessCheck] = [],
        metricsRegistry: PrometheusCollectorRegistry? = nil,
        routeProviders: [any RouteProvider] = []
    ) {
        self.readinessChecks = readinessChecks
        self.metricsRegistry = metricsRegistry
        self.routeProviders = routeProviders
    }
}
