import NIOCore
import NIOHTTP1

/// First in a connection's pipeline: counts the connection and reports every read to its
/// ``HTTPConnectionGuard`` (the bytes of a head before NIO's decoder has a whole one, a body's
/// progress). Passes everything on unchanged.
final class HTTPInboundActivityHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connection: HTTPConnectionGuard

    init(connection: HTTPConnectionGuard) {
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { connection.activated(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        connection.activated(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.bytesArrived(context)
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        connection.writabilityChanged(context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.deactivated()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connection.deactivated()
    }
}

@available(*, unavailable)
extension HTTPInboundActivityHandler: Sendable {}

/// Right after NIO's HTTP/1 decoder: follows each request and response through its
/// ``HTTPConnectionGuard``, answers what the decoder refuses (400, 431) instead of leaving the
/// connection open, and closes a connection whose response went out before its request was read.
/// Removes itself when the connection becomes a WebSocket.
final class HTTPRequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connection: HTTPConnectionGuard
    /// Whether the request being read goes on to the application.
    private var forwarding = true
    /// Set once a `101 Switching Protocols` went through: the handler leaves the pipeline at the
    /// flush that follows (NIO's decoder is gone by then, and WebSocket frames come next).
    private var leaving = false

    init(connection: HTTPConnectionGuard) {
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connection.requestContext = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if connection.requestContext === context { connection.requestContext = nil }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A closing connection's input is read and dropped (its lingering close).
        guard connection.phase != .closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            forwarding = connection.headReceived(head, context: context)
        case .body:
            break
        case .end:
            if forwarding { connection.requestEndReceived() }
        }
        if forwarding { context.fireChannelRead(data) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        forwarding = false
        connection.parseFailed(parserError)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        // Not in `write`: NIO's upgrade handler writes its 101 with `writeAndFlush`, which calls
        // this handler's `write` and then its `flush`; a handler gone after the first would
        // drop the second.
        if leaving {
            leaving = false
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            let written = connection.responseHeadWritten(head)
            context.write(wrapOutboundOut(.head(written)), promise: promise)
            if written.status == .switchingProtocols { leaving = true }
        case .body:
            context.write(data, promise: promise)
        case .end:
            let closing = connection.responseEndWritten(context)
            guard closing else {
                context.write(data, promise: promise)
                return
            }
            let channel = context.channel
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { result in
                promise?.completeWith(result)
                HTTPConnectionGuard.lingeringClose(channel)
            }
            context.writeAndFlush(data, promise: written)
        }
    }
}

@available(*, unavailable)
extension HTTPRequestGuardHandler: Sendable {}
