import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Puts ``HTTPLimits`` around another server child channel (Hummingbird's HTTP/1 channel with its
/// WebSocket upgrade): the connection cap and phase timers, and answers for request heads the
/// decoder refuses.
///
/// ``setupGuard(channel:)`` runs at accept: ``HTTPInboundActivityHandler`` first in the pipeline,
/// which counts and times the connection from its first instant. ``setupHTTP(channel:connection:logger:)``
/// runs once a whole request head has arrived (``HTTPServer``): the base channel's HTTP/1 pipeline, and
/// ``HTTPRequestGuardHandler`` right after NIO's request decoder, so that it sees every request
/// head before the upgrade handler has decided anything.
struct GuardedHTTPChannel<Base: ServerChildChannel>: Sendable {
    let base: Base
    let limits: HTTPLimits
    let metrics: HTTPConnectionMetrics

    func setupGuard(channel: any Channel) throws -> HTTPConnectionGuard {
        let connection = HTTPConnectionGuard(limits: limits, metrics: metrics)
        try channel.pipeline.syncOperations.addHandler(
            HTTPInboundActivityHandler(connection: connection), position: .first)
        return connection
    }

    func setupHTTP(channel: any Channel, connection: HTTPConnectionGuard, logger: Logger) -> EventLoopFuture<Base.Value>
    {
        base.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(
                HTTPRequestGuardHandler(connection: connection), position: .after(decoder.handler))
            return value
        }.nonisolated()
    }
}
