import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The HTTP server loop: a connection costs only its guard and one small handler until its first
/// byte; Hummingbird's HTTP/1 channel (its pipeline and its task) starts when bytes arrive.
///
/// Hummingbird's own `Server` sets up the whole pipeline and starts a task per connection at
/// accept, through NIO's async bootstrap (which registers a connection only once its set-up
/// future completes, so the set-up cannot wait for bytes there). A connection that never sends
/// (an idle flood, a health checker gone wrong) then cost ~350 µs of CPU from accept to close;
/// here it costs ~145 µs (docs/benchmarks.md).
struct FirstByteServer<Base: ServerChildChannel>: Service {
    let channel: GuardedHTTPChannel<Base>
    let host: String
    let port: Int
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void

    func run() async throws {
        let (connections, continuation) = AsyncStream<Base.Value>.makeStream()
        let quiescing = ServerQuiescingHelper(group: eventLoopGroup)
        let channel = self.channel
        let logger = self.logger
        let server = try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: Int32(clamping: channel.limits.acceptBacklog))
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { server in
                server.eventLoop.makeCompletedFuture {
                    try server.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: server))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let connection = try channel.setupGuard(channel: child)
                    try child.pipeline.syncOperations.addHandler(
                        HTTPFirstByteHandler { child in
                            let value = channel.setupHTTP(channel: child, connection: connection, logger: logger)
                            value.assumeIsolated().whenSuccess { continuation.yield($0) }
                            return value.map { _ in }
                        })
                }
            }
            .bind(host: host, port: port).get()
        logger.info("HTTP server listening on \(server.localAddress.map { "\($0)" } ?? "\(host):\(port)")")
        await onServerRunning(server)
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { group in
                    for await value in connections {
                        group.addTask { await channel.base.handle(value: value, logger: logger) }
                    }
                }
            } onGracefulShutdown: {
                // Stop accepting; connections finish their request and close (idle ones at once).
                let done = server.eventLoop.makePromise(of: Void.self)
                quiescing.initiateShutdown(promise: done)
                done.futureResult.whenComplete { _ in continuation.finish() }
            }
        } onCancel: {
            server.close(promise: nil)
            continuation.finish()
        }
        try? await server.close()
    }
}

/// Holds a new connection until its first bytes, then has the HTTP pipeline set up behind it,
/// passes the bytes on (and any that arrived meanwhile) and leaves the pipeline. A connection
/// that closes, or is asked to quiesce, before sending anything never gets more.
final class HTTPFirstByteHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private enum State {
        case waiting
        case opening(pending: [NIOAny])
        case open
    }

    private let open: (any Channel) -> EventLoopFuture<Void>
    private var state = State.waiting

    /// - Parameter open: Sets up the HTTP pipeline after this handler; the bytes go on once it
    ///   has succeeded (at once when it completes synchronously, as Hummingbird's channels do).
    init(open: @escaping (any Channel) -> EventLoopFuture<Void>) {
        self.open = open
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .open:
            context.fireChannelRead(data)
        case .opening(var pending):
            pending.append(data)
            state = .opening(pending: pending)
        case .waiting:
            state = .opening(pending: [data])
            open(context.channel).assumeIsolated().whenComplete { result in
                guard case .opening(let pending) = self.state else { return }
                self.state = .open
                switch result {
                case .success:
                    for data in pending { context.fireChannelRead(data) }
                    context.fireChannelReadComplete()
                    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                case .failure:
                    context.close(promise: nil)
                }
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .opening = state { return }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .waiting = state, event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
