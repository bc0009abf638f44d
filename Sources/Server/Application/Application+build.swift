import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging

/// Builds the router shared by the running server and the in-process tests.
public func buildRouter(dependencies: ServerDependencies) -> Router<SwitchboardRequestContext> {
    let router = Router(context: SwitchboardRequestContext.self)
    // First, so that it sees what the others made of a refusal (JSON, request id).
    router.add(middleware: UpgradeRefusalMiddleware())
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: ErrorMiddleware())
    HealthController<SwitchboardRequestContext>(
        checks: dependencies.readinessChecks, scopes: dependencies.readinessScopes, drain: dependencies.drain
    ).addRoutes(to: router)
    if let registry = dependencies.metricsRegistry {
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
            )
        }
    }
    for provider in dependencies.routeProviders {
        provider.addRoutes(to: router)
    }
    return router
}

/// Builds the HTTP application (a `Service`: run it in the process's `ServiceGroup`).
///
/// - Parameter eventLoopGroup: The event loops the server runs on (NIO's shared singleton by
///   default; tests that time connections give theirs a group of its own).
public func buildApplication(
    configuration: ServerConfiguration,
    dependencies: ServerDependencies,
    logger: Logger,
    eventLoopGroup: EventLoopGroupProvider = .singleton
) -> some ApplicationProtocol {
    let router = buildRouter(dependencies: dependencies)
    return Application(
        router: router,
        server: .guarded(webSocketRouter: router, limits: configuration.limits),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: configuration.serverName,
            backlog: configuration.limits.acceptBacklog
        ),
        eventLoopGroupProvider: eventLoopGroup,
        logger: logger
    )
}

extension HTTPServerBuilder {
    /// HTTP/1 with the WebSocket upgrade, inside ``HTTPLimits``: heads over the limits are refused
    /// by NIO's decoder (and answered 431 by the guard), and every connection is timed and counted.
    static func guarded(webSocketRouter: Router<SwitchboardRequestContext>, limits: HTTPLimits) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        let metrics = HTTPConnectionMetrics()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                idleTimeout: nil,
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: limits.maxHeadBytes, maxHeaderListSize: limits.maxHeadBytes,
                    maxHeaderFieldCount: limits.maxHeaderLines)),
            ws: .init(autoPing: .enabled(timePeriod: limits.webSocketPingInterval))
        )
        return HTTPServerBuilder { responder in
            GuardedHTTPChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: configuration),
                limits: limits, metrics: metrics)
        }
    }
}
