import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// Builds the router shared by the running server and the in-process tests.
public func buildRouter(dependencies: ServerDependencies) -> Router<SwitchboardRequestContext> {
    let router = Router(context: SwitchboardRequestContext.self)
    // First, so that it sees what the others made of a refusal (JSON, request id).
    router.add(middleware: UpgradeRefusalMiddleware())
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: ErrorMiddleware())
    if let localAccessGuard = dependencies.localAccessGuard {
        router.add(middleware: LocalAccessMiddleware(guard: localAccessGuard))
    }
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
/// - Parameter onServerRunning: Called with the listening channel once it is bound (tests read
///   the port of `port: 0` from it).
public func buildApplication(
    configuration: ServerConfiguration,
    dependencies: ServerDependencies,
    logger: Logger,
    eventLoopGroup: EventLoopGroupProvider = .singleton,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> HTTPApplication {
    HTTPApplication(
        router: buildRouter(dependencies: dependencies), configuration: configuration,
        eventLoopGroup: eventLoopGroup, logger: logger, onServerRunning: onServerRunning)
}

/// The HTTP server: the router's responder behind Hummingbird's HTTP/1 channel with the
/// WebSocket upgrade, inside ``HTTPLimits``, served by ``HTTPServer``.
public struct HTTPApplication: Service {
    let responder: RouterResponder<SwitchboardRequestContext>
    let configuration: ServerConfiguration
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void

    init(
        router: Router<SwitchboardRequestContext>, configuration: ServerConfiguration,
        eventLoopGroup: EventLoopGroupProvider, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) {
        responder = router.buildResponder()
        self.configuration = configuration
        switch eventLoopGroup {
        case .shared(let group): self.eventLoopGroup = group
        default: self.eventLoopGroup = MultiThreadedEventLoopGroup.singleton
        }
        self.logger = logger
        self.onServerRunning = onServerRunning
    }

    public func run() async throws {
        let responder = self.responder
        let logger = self.logger
        let serverName = configuration.serverName
        let dates = HTTPDate()
        let respond: HTTPChannelHandler.Responder = { request, writer, channel in
            var logger = logger
            logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            let context = SwitchboardRequestContext(source: .init(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                logger.debug("unrecognised error", metadata: ["error.type": "\(error)"])
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = dates.now()
            response.headers[.server] = serverName
            try await writer.write(response: response.head, body: response.body)
        }
        let limits = configuration.limits
        let http1 = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                idleTimeout: nil,
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: limits.maxHeadBytes, maxHeaderListSize: limits.maxHeadBytes,
                    maxHeaderFieldCount: limits.maxHeaderLines)),
            ws: .init(autoPing: .enabled(timePeriod: limits.webSocketPingInterval))
        )
        let server = HTTPServer(
            channel: GuardedHTTPChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: respond, webSocketResponder: responder, configuration: http1),
                limits: limits, metrics: HTTPConnectionMetrics()),
            host: configuration.host, port: configuration.port, eventLoopGroup: eventLoopGroup, logger: logger,
            onServerRunning: onServerRunning)
        try await server.run()
    }
}
