import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every route: Hummingbird's basic context with WebSocket support, and
/// the request's connection.
public struct SwitchboardRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on: ``UpgradeRefusalMiddleware`` adds a handler to its
    /// pipeline.
    let channel: any Channel

    /// The peer's address (`/ready` shows its details to loopback callers only).
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// Creates the context of one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.channel = source.channel
    }
}
