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
    /// `GET /ready/{scope}`: the names of the checks each kind of traffic needs (e.g. `hook`:
    /// `flows`), so a dependency one route does not use cannot take it out of a load balancer.
    public var readinessScopes: [String: Set<String>]
    /// Set while the process drains on shutdown: every readiness endpoint then answers 503.
    public var drain: ShutdownDrain?
    /// Set when a surface runs without credentials (`dev` on loopback): requests from beyond the
    /// machine's own pages are refused.
    public var localAccessGuard: LocalAccessGuard?

    /// Creates the dependencies.
    public init(
        readinessChecks: [any ReadinessCheck] = [],
        metricsRegistry: PrometheusCollectorRegistry? = nil,
        routeProviders: [any RouteProvider] = [],
        readinessScopes: [String: Set<String>] = [:],
        drain: ShutdownDrain? = nil,
        localAccessGuard: LocalAccessGuard? = nil
    ) {
        self.readinessChecks = readinessChecks
        self.metricsRegistry = metricsRegistry
        self.routeProviders = routeProviders
        self.readinessScopes = readinessScopes
        self.drain = drain
        self.localAccessGuard = localAccessGuard
    }
}
