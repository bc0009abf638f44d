import Logging
import OperatingHours
import Prometheus
import Server
import Services

/// The IVR hook of a process, built from the settings: the flows, the routes, the readiness check
/// and the reload service.
///
/// `flows/` is loaded once here, before the server starts, so the first call is answered from
/// it; a broken set at start-up is logged and `/ready` fails until a valid one appears.
public struct HookWiring: Sendable {
    /// The current flows.
    public let store: FlowStore
    /// The hook, hours and calendar routes, `/openapi.yaml` and `/v1/ping`.
    public let routeProviders: [any RouteProvider]
    /// `/ready`'s `flows` check.
    public let readinessCheck: any ReadinessCheck
    /// Reloads `flows/` on change and on `SIGHUP`; run it in the process's `ServiceGroup`.
    public let reloadService: FlowReloadService

    /// - Parameter onReload: Runs after each reload that loaded a new valid `flows/` (not after
    ///   the first load, here).
    public init(
        settings: Settings, logger: Logger, onReload: @escaping @Sendable (LoadedFlows) async -> Void = { _ in }
    ) {
        let store = FlowStore(directory: settings.flowsDirectory, logger: Logger(label: "switchboard.flows"))
        store.reload(force: true)
        let configuration = HookConfiguration(
            bearerTokens: settings.hookTokens,
            hmacSecrets: settings.hookHMACSecrets,
            acceptsV1Signatures: settings.hookAcceptsV1Signatures,
            replayWindowSeconds: Int64(settings.hookReplayWindowSeconds)
        )
        if !configuration.requiresAuthentication {
            logger.warning(
                "the IVR hook is open: set SWITCHBOARD_HOOK_TOKENS or SWITCHBOARD_HOOK_HMAC_SECRET outside development")
        }
        self.store = store
        self.routeProviders = [
            HookRoutes(store: store, configuration: configuration),
            APIDocumentRoutes(),
        ]
        self.readinessCheck = FlowReadinessCheck(store: store)
        self.reloadService = FlowReloadService(
            store: store, pollInterval: .milliseconds(settings.flowsPollIntervalMilliseconds), onLoad: onReload)
    }

    /// Gives the hook's latency histogram buckets fit for sub-millisecond answers (Prometheus's
    /// defaults start at 5 ms). Call before `MetricsSystem.bootstrap`.
    public static func configureMetrics(_ factory: inout PrometheusMetricsFactory) {
        factory.durationHistogramBuckets[HookMetrics.durationLabel] = HookMetrics.durationBuckets
    }
}
