import Hummingbird

/// What a server with a surface open (no credentials: `switchboard dev` on loopback, `serve` with
/// `SWITCHBOARD_ALLOW_OPEN` on a private network) accepts, so that a web page someone with access
/// visits cannot use it through their browser:
///
/// - a request whose `Host` is not a loopback name gets 403 (DNS rebinding: a page of
///   `attacker.example` resolved to 127.0.0.1 sends its own name); `serve` also takes a private
///   network's address literals (no page is served from those) and the names an operator lists
///   (`SWITCHBOARD_ALLOWED_HOSTS`);
/// - a `POST`, `PUT` or `PATCH` needs `Content-Type: application/json`, which a cross-site form
///   cannot send without a preflight nobody answers (Firehose and EventBridge send it);
/// - a WebSocket upgrade or a request of the floor's streams (`/v1/floor…`) that carries an
///   `Origin` needs the server's own (`http://`, or `https://` behind a private network's proxy,
///   and the request's `Host`); programs send none.
///
/// Pure: ``refusal(method:path:host:contentType:origin:isUpgrade:)`` decides, the middleware
/// applies it.
public struct LocalAccessGuard: Sendable {
    /// Names a `Host` may carry besides loopback, lowercased, without a port.
    public let names: Set<String>
    /// Whether a private network's address literals pass as `Host` too (`serve`).
    public let privateNetwork: Bool

    /// The guard of `dev` (loopback only), or with `privateNetwork` the one of `serve` with a
    /// surface open: loopback, private addresses and `names`.
    public init(names: some Sequence<String> = [String](), privateNetwork: Bool = false) {
        self.names = Set(names.map { $0.lowercased() })
        self.privateNetwork = privateNetwork
    }

    /// The refusal of a request, or `nil` when it may go on.
    public func refusal(
        method: HTTPRequest.Method, path: String, host: String?, contentType: String?, origin: String?,
        isUpgrade: Bool
    ) -> APIError? {
        guard let host, accepts(authority: host) else {
            return APIError(
                .forbidden, code: "forbidden_host",
                reason: privateNetwork
                    ? "this server runs a surface without credentials (SWITCHBOARD_ALLOW_OPEN) and answers only requests to loopback, a private address or a name of SWITCHBOARD_ALLOWED_HOSTS"
                    : "this server runs without credentials and answers only requests to a loopback name (localhost, 127.0.0.1, [::1]); set credentials to serve other hosts"
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
            let origin = origin.lowercased()
            let own = host.lowercased()
            guard origin == "http://\(own)" || (privateNetwork && origin == "https://\(own)") else {
                return APIError(
                    .forbidden, code: "forbidden_origin",
                    reason: "the floor's streams answer pages of this server only (Origin http://\(host))")
            }
        }
        return nil
    }

    /// Whether `authority` (a `Host` header) names a host this guard answers.
    func accepts(authority: String) -> Bool {
        guard let host = Self.host(of: authority) else { return false }
        if Self.isLoopback(host: host) { return true }
        return privateNetwork && (names.contains(host.lowercased()) || Self.isPrivateAddress(host))
    }

    /// Whether `authority` (a `Host` header: a name or an address, with an optional port) names
    /// loopback: `localhost`, `127.0.0.0/8` or `[::1]`.
    static func isLoopback(authority: String) -> Bool {
        host(of: authority).map(isLoopback(host:)) ?? false
    }

    /// The host of an authority, without its port or brackets; nil for an unclosed bracket.
    static func host(of authority: String) -> String? {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        return String(host)
    }

    /// Whether `host` is an address literal of a private network: 10/8, 172.16/12, 192.168/16,
    /// 100.64/10 (shared address space, some clusters' pods), 169.254/16, fc00::/7 or fe80::/10.
    static func isPrivateAddress(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { UInt8($0) }
        if parts.count == 4 && octets.count == 4 {
            switch (octets[0], octets[1]) {
            case (10, _), (192, 168), (169, 254): return true
            case (172, 16...31), (100, 64...127): return true
            default: return false
            }
        }
        let address = host.lowercased()
        guard address.contains(":"), address.allSatisfy({ $0.isHexDigit || $0 == ":" }) else { return false }
        let first = address.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
        guard first.count == 4, let word = UInt16(first, radix: 16) else { return false }
        return word & 0xfe00 == 0xfc00 || word & 0xffc0 == 0xfe80
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
