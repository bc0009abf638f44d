import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server child channel that puts ``HTTPLimits`` around another one (Hummingbird's HTTP/1
/// channel with its WebSocket upgrade): the connection cap and phase timers, and answers for
/// request heads the decoder refuses.
///
/// The base channel configures NIO's HTTP/1 pipeline; this adds ``HTTPInboundActivityHandler``
/// before it and ``HTTPRequestGuardHandler`` right after NIO's request decoder, so both see a
/// connection from its first byte, before the upgrade handler has decided anything.
struct GuardedHTTPChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let limits: HTTPLimits
    let metrics: HTTPConnectionMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connection = NIOLoopBound(
            HTTPConnectionGuard(limits: limits, metrics: metrics), eventLoop: channel.eventLoop)
        do {
            try channel.pipeline.syncOperations.addHandler(
                HTTPInboundActivityHandler(connection: connection.value), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(
                HTTPRequestGuardHandler(connection: connection.value), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
