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

    /// The role's HTTP server (`/health`, `/ready` and `/ready/{scope}` over `readiness`,
    /// `/metrics`, and `routes`) and the services that go with it: the `switchboard_ready`
    /// gauges, and with a `drain`, the drain on shutdown. List them last, in this order.
    func http(
        port: Int? = nil, readiness: [any ReadinessCheck], scopes: [String: Set<String>] = [:],
        routes: [any RouteProvider] = [], drain: ShutdownDrain? = nil, localAccess: LocalAccessGuard? = nil
    ) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let application = buildApplication(
            configuration: ServerConfiguration(
                host: settings.httpHost, port: port ?? settings.httpPort, limits: settings.httpLimits),
            dependencies: ServerDependencies(
                readinessChecks: readiness, metricsRegistry: metrics, routeProviders: routes,
                readinessScopes: scopes, drain: drain,
                localAccessGuard: localAccess),
            logger: Logger(label: "switchboard.http")
        )
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: application),
            .init(service: ReadinessGauges(checks: readiness, drain: drain)),
        ]
        if let drain {
            // Last: graceful shutdown reaches it first, and the server stops only after the drain.
            let period = Duration.seconds(settings.shutdownDrainSeconds)
            services.append(.init(service: DrainService(drain: drain, period: period, logger: logger)))
        }
        return services
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
    /// Also raises the process's file-descriptor limit to its hard limit, which sizes the HTTP
    /// server's default connection cap.
    public static func bootstrap(_ settings: Settings, logger: Logger = Logger(label: "switchboard")) -> RoleContext {
        FileDescriptorLimit.raiseToHardLimit()
        return RoleContext(settings: settings, metrics: MetricsSetup.bootstrap(), logger: logger)
    }
}

extension RoleContext {
    /// The readiness scopes of the HTTP roles: the hook needs its flows only (a Kafka outage
    /// must not take it out of a load balancer); the console needs Kafka and a caught-up floor.
    static let serveScopes: [String: Set<String>] = ["hook": ["flows"], "console": ["kafka", "floor"]]
}
