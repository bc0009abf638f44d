import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The HTTP server loop: a connection costs only its guard and one small handler until it has
/// sent a whole request head; Hummingbird's HTTP/1 channel (its pipeline and its task) starts
/// then.
///
/// Hummingbird's own `Server` sets up the whole pipeline and starts a task per connection at
/// accept, through NIO's async bootstrap (which registers a connection only once its set-up
/// future completes, so the set-up cannot wait for bytes there). Under a flood of connections
/// that never send, or send a head a line at a time (slowloris), that set-up was most of what the
/// flood cost the server (docs/benchmarks.md).
struct HTTPServer<Base: ServerChildChannel>: Service {
    let channel: GuardedHTTPChannel<Base>
    let host: String
    let port: Int
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void

    func run() async throws {
        let (connections, continuation) = AsyncStream<Base.Value>.makeStream()
        let quiescing = ServerQuiescingHelper(group: eventLoopGroup)
        let server = try await bootstrap(quiescing: quiescing) { value in continuation.yield(value) }
            .bind(host: host, port: port).get()
        logger.info("HTTP server listening on \(server.localAddress.map { "\($0)" } ?? "\(host):\(port)")")
        await onServerRunning(server)
        let channel = self.channel
        let logger = self.logger
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

    /// The listener: the connection guard at accept, the HTTP pipeline at the first whole head,
    /// whose value goes to `onHTTP`.
    private func bootstrap(
        quiescing: ServerQuiescingHelper, onHTTP: @escaping @Sendable (Base.Value) -> Void
    ) -> ServerBootstrap {
        let channel = self.channel
        let logger = self.logger
        return ServerBootstrap(group: eventLoopGroup)
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
                        HTTPFirstHeadHandler(limit: channel.limits.maxHeadBytes) { child in
                            let value = channel.setupHTTP(channel: child, connection: connection, logger: logger)
                            value.assumeIsolated().whenSuccess { onHTTP($0) }
                            return value.map { _ in }
                        })
                }
            }
    }
}

/// Holds a new connection's bytes until they hold a whole request head, then has the HTTP
/// pipeline set up behind it, passes the bytes on and leaves the pipeline. A slowloris
/// connection (a head sent a line at a time) or one that never sends costs this handler and the
/// guard, never a parser, a pipeline or a task; its header timeout ends it all the same.
///
/// The pipeline opens early where the decoder has something to say at once: bytes that cannot
/// start a request line (a TLS handshake, garbage) are refused by it with 400, a head past
/// `limit` bytes with 431.
final class HTTPFirstHeadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State {
        case buffering(ByteBuffer?)
        case opening(pending: ByteBuffer)
        case open
    }

    private let limit: Int
    private let open: (any Channel) -> EventLoopFuture<Void>
    private var state = State.buffering(nil)
    /// Where the search for the head's end resumes in the buffered bytes.
    private var scanned = 0

    /// - Parameter limit: The most bytes held before the decoder sees them (the head limit).
    /// - Parameter open: Sets up the HTTP pipeline after this handler; the bytes go on once it
    ///   has succeeded (at once when it completes synchronously, as Hummingbird's channels do).
    init(limit: Int, open: @escaping (any Channel) -> EventLoopFuture<Void>) {
        self.limit = limit
        self.open = open
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .open:
            context.fireChannelRead(data)
        case .opening(var pending):
            state = .open  // drops the state's reference, so that the append does not copy
            pending.writeBuffer(&bytes)
            state = .opening(pending: pending)
        case .buffering(let held):
            state = .buffering(nil)  // as above
            var buffer: ByteBuffer
            if var held {
                held.writeBuffer(&bytes)
                buffer = held
            } else {
                buffer = bytes
            }
            if Self.headEnds(in: buffer, from: &scanned) || buffer.readableBytes > limit
                || !Self.mayStartRequest(buffer)
            {
                openPipeline(context: context, with: buffer)
            } else {
                state = .buffering(buffer)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard case .open = state else { return }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .buffering = state {
            // Nothing was asked yet: a shutdown, or a client that stopped sending, ends it here.
            if event is ChannelShouldQuiesceEvent || event as? ChannelEvent == .inputClosed {
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func openPipeline(context: ChannelHandlerContext, with buffer: ByteBuffer) {
        state = .opening(pending: buffer)
        open(context.channel).assumeIsolated().whenComplete { result in
            guard case .opening(let pending) = self.state else { return }
            self.state = .open
            switch result {
            case .success:
                context.fireChannelRead(self.wrapInboundOut(pending))
                context.fireChannelReadComplete()
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            case .failure:
                context.close(promise: nil)
            }
        }
    }

    /// Whether the bytes hold an empty line (`CRLF CRLF`, or bare `LF`s as lenient parsers
    /// accept): the end of a request head. `from` keeps the position across reads.
    static func headEnds(in buffer: ByteBuffer, from position: inout Int) -> Bool {
        buffer.withUnsafeReadableBytes { bytes in
            var index = max(position - 2, 0)
            defer { position = max(bytes.count - 2, 0) }
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") {
                    var next = index + 1
                    if next < bytes.count, bytes[next] == UInt8(ascii: "\r") { next += 1 }
                    if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return true }
                }
                index += 1
            }
            return false
        }
    }

    /// Whether the bytes can begin a request line: a method (RFC 9110 token characters) up to
    /// the first space. A client's leading empty lines (RFC 9112 §2.2) are let through.
    static func mayStartRequest(_ buffer: ByteBuffer) -> Bool {
        buffer.withUnsafeReadableBytes { bytes in
            var index = 0
            while index < bytes.count, bytes[index] == UInt8(ascii: "\r") || bytes[index] == UInt8(ascii: "\n") {
                index += 1
            }
            let methodStart = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: " ") { return index > methodStart }
                guard isTokenCharacter(byte) else { return false }
                index += 1
            }
            return true
        }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
