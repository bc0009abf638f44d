import Metrics
import Prometheus

/// Sets up swift-metrics once per process, exported in Prometheus's format on `/metrics`.
public enum MetricsSetup {
    /// Bootstraps swift-metrics with a Prometheus registry (call once per process).
    public static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        HookWiring.configureMetrics(&factory)
        MetricsSystem.bootstrap(factory)
        return registry
    }
}
