import Hummingbird

/// What a server with a surface open (no credentials: `switchboard dev` on loopback) accepts, so
/// that a web page the developer visits cannot use it through the browser:
///
/// - a request whose `Host` is not a loopback name gets 403 (DNS rebinding: a page of
///   `attacker.example` resolved to 127.0.0.1 sends its own name);
/// - a `POST`, `PUT` or `PATCH` needs `Content-Type: application/json`, which a cross-site form
///   cannot send without a preflight nobody answers (Firehose and EventBridge send it);
/// - a WebSocket upgrade or a request of the floor's streams (`/v1/floor…`) that carries an
///   `Origin` needs the server's own (`http://` and the request's `Host`); programs send none.
///
/// Pure: ``refusal(method:path:host:contentType:origin:isUpgrade:)`` decides, the middleware
/// applies it.
public struct LocalAccessGuard: Sendable {
    public init() {}

    /// The refusal of a request, or `nil` when it may go on.
    public func refusal(
        method: HTTPRequest.Method, path: String, host: String?, contentType: String?, origin: String?,
        isUpgrade: Bool
    ) -> APIError? {
        guard let host, Self.isLoopback(authority: host) else {
            return APIError(
                .forbidden, code: "forbidden_host",
                reason:
                    "this server runs without credentials and answers only requests to a loopback name (localhost, 127.0.0.1, [::1]); set credentials to serve other hosts"
            )
        }
        if method == .post || method == .put || method == .patch {
            let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard mediaType == "application/json" else {
                return APIError(
                    .unsupportedMediaType, code: "unsupported_media_type",
                    reason: "send the body as JSON with Content-Type: application/json")
            }
        }
        if let origin, isUpgrade || path == "/v1/floor" || path.hasPrefix("/v1/floor/") {
            guard origin.lowercased() == "http://\(host.lowercased())" else {
                return APIError(
                    .forbidden, code: "forbidden_origin",
                    reason: "the floor's streams answer pages of this server only (Origin http://\(host))")
            }
        }
        return nil
    }

    /// Whether `authority` (a `Host` header: a name or an address, with an optional port) names
    /// loopback: `localhost`, `127.0.0.0/8` or `[::1]`.
    static func isLoopback(authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        return isLoopback(host: String(host))
    }

    /// Whether `host` (a name or an address, without a port or brackets) is `localhost`, an
    /// address of `127.0.0.0/8` or `::1`.
    public static func isLoopback(host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// Applies a ``LocalAccessGuard`` to every request.
struct LocalAccessMiddleware: RouterMiddleware {
    typealias Context = SwitchboardRequestContext

    let `guard`: LocalAccessGuard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let refusal = `guard`.refusal(
            method: request.method, path: request.uri.path, host: request.head.authority,
            contentType: request.headers[.contentType], origin: request.headers[.origin],
            isUpgrade: UpgradeRefusalMiddleware.isWebSocketUpgrade(request.headers))
        {
            throw refusal
        }
        return try await next(request, context)
    }
}
