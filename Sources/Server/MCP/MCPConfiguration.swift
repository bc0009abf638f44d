import Foundation

/// How the MCP endpoint authenticates callers and what it accepts, set per deployment.
///
/// Callers present `Authorization: Bearer <token>`: one of ``bearerTokens``, or an OAuth 2.0
/// access token (a JWT) of ``oauth``'s issuer. With neither configured, the endpoint is open when
/// ``allowsUnauthenticated`` (`switchboard dev`) and refused otherwise (`serve`).
public struct MCPConfiguration: Sendable {
    /// An OAuth 2.0 authorization server whose access tokens are accepted.
    public struct OAuth: Sendable {
        /// The issuer (`iss`), e.g. `https://cognito-idp.ap-northeast-1.amazonaws.com/<pool id>`.
        public var issuer: String
        /// Accepted audiences: a token's `aud`, or its `client_id` when it has no `aud`.
        public var audiences: [String]
        /// Where the issuer publishes its signing keys: `https` (`http` only to a loopback host).
        public var jwksURL: URL
        /// Scopes a token must all hold (its `scope` or `scp`); empty for none.
        public var requiredScopes: [String]

        /// - Parameters: see the properties.
        public init(issuer: String, audiences: [String], jwksURL: URL, requiredScopes: [String] = []) {
            self.issuer = issuer
            self.audiences = audiences
            self.jwksURL = jwksURL
            self.requiredScopes = requiredScopes
        }

        /// Whether the keys may be fetched from `url`: `https`, or `http` to a loopback host.
        public static func isAllowedJWKSURL(_ url: URL) -> Bool { JWKSCache.isAllowed(url) }
    }

    /// Accepted static bearer tokens.
    public var bearerTokens: [String]
    /// The OAuth issuer, if any.
    public var oauth: OAuth?
    /// Whether a deployment with no credentials configured is open (development) or refused.
    public var allowsUnauthenticated: Bool
    /// The endpoint's canonical URL (`resource` of the protected resource metadata), e.g.
    /// `https://switchboard.example.com/mcp`; `nil` derives it from each request's `Host`.
    public var resource: String?
    /// Browser origins allowed besides loopback ones (`Origin` is checked against DNS rebinding).
    public var allowedOrigins: [String]
    /// The largest request body accepted.
    public var maximumBodyBytes: Int
    /// The handle time `queue_status` assumes for its expected wait, in seconds.
    public var assumedHandleSeconds: Int

    /// Creates a configuration.
    public init(
        bearerTokens: [String] = [], oauth: OAuth? = nil, allowsUnauthenticated: Bool = false,
        resource: String? = nil, allowedOrigins: [String] = [], maximumBodyBytes: Int = 256 * 1024,
        assumedHandleSeconds: Int = 300
    ) {
        self.bearerTokens = bearerTokens.filter { !$0.isEmpty }
        self.oauth = oauth
        self.allowsUnauthenticated = allowsUnauthenticated
        self.resource = resource
        self.allowedOrigins = allowedOrigins
        self.maximumBodyBytes = maximumBodyBytes
        self.assumedHandleSeconds = assumedHandleSeconds
    }

    /// Whether any credential is configured.
    public var requiresAuthentication: Bool { !bearerTokens.isEmpty || oauth != nil }
}
