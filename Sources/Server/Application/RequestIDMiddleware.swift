import Hummingbird
import Logging

/// Gives every request an id that follows it through the logs and comes back to the caller.
///
/// A caller's `X-Request-ID` (1–128 characters of letters, digits and `-._:`) is kept, so a
/// call can be followed from the IVR platform or a proxy; otherwise Hummingbird's generated id
/// is used. Either way it is the `hb.request.id` metadata of every log line written through the
/// request's logger (`"hb.request.id"` in JSON logs) and the `X-Request-ID` header of the answer,
/// errors included (not the library's own answers to WebSocket upgrades it refuses before
/// routing). Each request is also logged once at `debug` level (method, path without its query,
/// which may carry a token; status; milliseconds until the response head was ready, so about 0
/// for a stream).
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let supplied = request.headers[HTTPFields.Element.Name.requestID], Self.isAcceptable(supplied) {
            context.logger[metadataKey: "hb.request.id"] = .string(supplied)
        }
        let id = context.id
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[HTTPFields.Element.Name.requestID] = id
        if context.logger.logLevel <= .debug {
            let elapsed = start.duration(to: .now)
            let milliseconds =
                Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
            context.logger.debug(
                "\(request.method) \(request.uri.path) \(response.status.code)",
                metadata: ["elapsed_ms": .stringConvertible(milliseconds)])
        }
        return response
    }

    /// Whether a caller's id is safe to log and echo.
    static func isAcceptable(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard (1...128).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: ":"):
                return true
            default:
                return false
            }
        }
    }
}

extension HTTPFields.Element.Name {
    /// `X-Request-ID`: the id of a request in the logs (``RequestIDMiddleware``).
    static let requestID = Self("X-Request-ID")!
}
