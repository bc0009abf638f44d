import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Makes a refused WebSocket upgrade answer with the router's response (for a missing console
/// token, the 401 with a JSON reason that every other route gives), instead of an empty `400`.
///
/// hummingbird-websocket decides an upgrade by running the router on the upgrade request; when
/// the router answers anything but `200`, it refuses the upgrade, drops that answer, and writes
/// `400 Bad Request` with no body (`HTTP1WebSocketUpgradeChannel.writeFailedUpgrade` in 2.8.1), with
/// no option to change it. So, when the rest of the router refuses a WebSocket upgrade request,
/// this middleware installs an ``UpgradeRefusalHandler`` carrying the router's response in the
/// connection's pipeline before it answers; the handler writes that response in place of the `400`.
/// Upgrades that go ahead, and every other request, are untouched. Only a connection's first
/// request is an upgrade attempt (NIO's upgrade handler then leaves the pipeline); an `Upgrade`
/// header on a later request of a keep-alive connection is an ordinary request, answered by the
/// router as it is, and nothing is installed for it.
///
/// - Important: Add it before every other middleware, so that it sees the response
///   ``ErrorMiddleware`` made of a thrown error.
struct UpgradeRefusalMiddleware: RouterMiddleware {
    typealias Context = SwitchboardRequestContext

    /// Refusals with a larger body keep the library's empty `400` (ours are a few hundred bytes).
    static let maximumBodyBytes = 16 * 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard Self.isWebSocketUpgrade(request.headers) else { return try await next(request, context) }
        var response = try await next(request, context)
        guard response.status != .ok else { return response }  // 200 is how the router accepts an upgrade
        guard let body = try await Self.collect(response.body) else { return response }
        response.body = ResponseBody(byteBuffer: body)

        var headers = HTTPHeaders(response.headers.map { ($0.name.canonicalName, $0.value) })
        headers.replaceOrAdd(name: "content-length", value: String(body.readableBytes))
        headers.replaceOrAdd(name: "connection", value: "close")
        let head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase),
            headers: headers
        )
        // Installed before this returns, so before the library reports the refusal and writes
        // its 400: the handler then sits between the upgrade handler and the HTTP/1 codec that
        // the library adds for the refused connection.
        let channel = context.channel
        try await channel.eventLoop.submit {
            // Past the upgrade attempt the library has added its HTTP/1 connection handler:
            // the router's answer goes out as it is.
            guard (try? channel.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)) == nil else {
                return
            }
            try channel.pipeline.syncOperations.addHandler(UpgradeRefusalHandler(head: head, body: body))
        }.get()
        return response
    }

    /// Whether the request asks to become a WebSocket (`Upgrade: websocket`, any case, possibly
    /// among other protocols), as NIO's upgrade handler reads it.
    static func isWebSocketUpgrade(_ headers: HTTPFields) -> Bool {
        headers[values: .upgrade].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" }
        }
    }

    /// The whole body, or `nil` when it is larger than ``maximumBodyBytes``.
    static func collect(_ body: ResponseBody) async throws -> ByteBuffer? {
        if let length = body.contentLength, length > maximumBodyBytes { return nil }
        let collector = BodyCollector()
        try await body.write(collector)
        return collector.buffer.readableBytes <= maximumBodyBytes ? collector.buffer : nil
    }
}

/// Collects a small response body; used by one task at a time.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
