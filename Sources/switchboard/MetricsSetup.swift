import Metrics
import Prometheus

/// Sets up swift-metrics once per process, exported in Prometheus's format on `/metrics`.
enum MetricsSetup {
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        HookWiring.configureMetrics(&factory)
        MetricsSystem.bootstrap(factory)
        return registry
    }
}
