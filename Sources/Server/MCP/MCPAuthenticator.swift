import Foundation
import Hummingbird
import Logging

/// Decides whether a request may use the MCP endpoint: a static bearer token or a verified
/// OAuth access token; `Origin` against DNS rebinding.
struct MCPAuthenticator: Sendable {
    /// Why a request was refused.
    enum Refusal: Error, Hashable, Sendable {
        /// No credential configured on a deployment that requires one (`serve`).
        case notConfigured
        /// No bearer token.
        case missingToken
        /// A token that is neither a static token nor a valid access token.
        case invalidToken(String)
        /// A browser origin that is not allowed.
        case forbiddenOrigin(String)
    }

    let configuration: MCPConfiguration
    private let tokens: AccessTokens
    private let verifier: JWTVerifier?

    /// - Parameters:
    ///   - fetchKeys: Fetches the issuer's JWKS (by default from its URL).
    ///   - now: The clock of expiry checks.
    init(
        configuration: MCPConfiguration, logger: Logger, fetchKeys: JWKSCache.Fetch? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.tokens = AccessTokens(configuration.bearerTokens)
        self.verifier = configuration.oauth.map { oauth in
            JWTVerifier(
                issuer: oauth.issuer, audiences: oauth.audiences, requiredScopes: oauth.requiredScopes,
                keys: JWKSCache(logger: logger, fetch: fetchKeys ?? JWKSCache.fetcher(url: oauth.jwksURL)),
                leewaySeconds: 30, now: now)
        }
    }

    /// Checks a request.
    ///
    /// - Throws: ``Refusal`` when the request may not proceed.
    func authenticate(_ headers: HTTPFields) async throws(Refusal) {
        if let origin = headers[.origin], !isAllowed(origin: origin) { throw .forbiddenOrigin(origin) }
        guard configuration.requiresAuthentication else {
            if configuration.allowsUnauthenticated { return }
            throw .notConfigured
        }
        guard let authorization = headers[.authorization], let token = AccessTokens.bearer(authorization),
            !token.isEmpty
        else { throw .missingToken }
        if !tokens.isOpen, tokens.accepts(token) { return }
        guard let verifier else { throw .invalidToken("the bearer token is not accepted") }
        do {
            _ = try await verifier.verify(token)
        } catch {
            throw .invalidToken(error.reason)
        }
    }

    /// Whether a browser origin may call: loopback origins and the configured ones. A request
    /// without `Origin` (every non-browser client) is not subject to this.
    func isAllowed(origin: String) -> Bool {
        if configuration.allowedOrigins.contains(origin) { return true }
        guard let host = URLComponents(string: origin)?.host?.lowercased() else { return false }
        return host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "[::1]"
    }
}
