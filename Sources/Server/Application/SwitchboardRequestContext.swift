import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every route: Hummingbird's basic context with WebSocket support, and
/// the request's connection.
public struct SwitchboardRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on: ``UpgradeRefusalMiddleware`` adds a handler to its
    /// pipeline.
    let channel: any Channel

    /// Creates the context of one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.channel = source.channel
    }
}
