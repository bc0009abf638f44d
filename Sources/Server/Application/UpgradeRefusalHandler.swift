import NIOCore
import NIOHTTP1

/// Writes a refused WebSocket upgrade's real answer in place of hummingbird-websocket's empty
/// `400` (see ``UpgradeRefusalMiddleware``, which installs it).
///
/// It is added only to the pipeline of a connection whose upgrade the router has just refused,
/// between NIO's upgrade handler and the HTTP/1 codec that hummingbird-websocket then adds; it
/// replaces the first response if that is the library's `400` (head and end, no body), passes
/// anything else unchanged, and removes itself once that first response is written.
final class UpgradeRefusalHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case waiting
        case replacing
        case passing
    }

    private let head: HTTPResponseHead
    private let body: ByteBuffer
    private var state = State.waiting

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - head: The status and headers to write, `Content-Length` included.
    ///   - body: The body to write.
    init(head: HTTPResponseHead, body: ByteBuffer) {
        self.head = head
        self.body = body
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch (state, unwrapOutboundIn(data)) {
        case (.waiting, .head(let original)):
            guard original.status == .badRequest else {
                state = .passing
                context.write(data, promise: promise)
                return
            }
            state = .replacing
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
        case (.replacing, .body):
            promise?.succeed(())  // the library's 400 has none; ours has been written
        case (.replacing, .end), (.passing, .end):
            context.write(data, promise: promise)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        default:
            context.write(data, promise: promise)
        }
    }
}

@available(*, unavailable)
extension UpgradeRefusalHandler: Sendable {}
