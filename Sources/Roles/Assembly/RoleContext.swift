import Logging
import Metrics
import Prometheus
import Server
import ServiceLifecycle

/// What every role builder receives: the settings and the process's metrics registry (the
/// executable bootstraps logging and metrics once, then builds one role).
public struct RoleContext: Sendable {
    public var settings: Settings
    public var metrics: PrometheusCollectorRegistry
    public var logger: Logger

    /// - Parameters:
    ///   - settings: The role's settings (environment plus command-line overrides).
    ///   - metrics: The registry `/metrics` exports.
    ///   - logger: The role's logger.
    public init(settings: Settings, metrics: PrometheusCollectorRegistry, logger: Logger) {
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
    }

    /// The role's HTTP server: `/health`, `/ready` over `readiness`, `/metrics`, and `routes`.
    func application(
        port: Int? = nil, readiness: [any ReadinessCheck], routes: [any RouteProvider] = []
    ) -> some Service {
        buildApplication(
            configuration: ServerConfiguration(host: settings.httpHost, port: port ?? settings.httpPort),
            dependencies: ServerDependencies(
                readinessChecks: readiness, metricsRegistry: metrics, routeProviders: routes),
            logger: Logger(label: "switchboard.http")
        )
    }

    /// One `ServiceGroup` for the role, stopped by SIGTERM or SIGINT (in reverse order).
    func group(_ services: [ServiceGroupConfiguration.ServiceConfiguration]) -> ServiceGroup {
        ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    }
}

extension RoleContext {
    /// Bootstraps the process's metrics (Prometheus) for `settings` and returns the context to
    /// build one role with. Call once per process, after logging is set up.
    public static func bootstrap(_ settings: Settings, logger: Logger = Logger(label: "switchboard")) -> RoleContext {
        RoleContext(settings: settings, metrics: MetricsSetup.bootstrap(), logger: logger)
    }
}
