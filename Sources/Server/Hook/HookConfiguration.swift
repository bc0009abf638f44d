/// How the hook routes authenticate callers and bound their requests, set per deployment.
///
/// With no bearer token and no HMAC secret the hook is open (for development); otherwise a
/// request must carry a valid credential of either kind.
public struct HookConfiguration: Sendable {
    /// Accepted `Authorization: Bearer <token>` values.
    public var bearerTokens: [String]
    /// The shared secrets of HMAC-SHA256 request signatures; empty for none.
    ///
    /// A signed request carries `X-Switchboard-Timestamp` (Unix seconds) and
    /// `X-Switchboard-Signature: v2=<hex>`, the HMAC under any of them of the timestamp, the
    /// method, the request target as sent and the body, separated by line feeds
    /// (`timestamp\nPOST\n/v1/hooks/main?x=1\n` then the body): during a rotation the new and the
    /// old secret are both accepted until every caller signs with the new one.
    ///
    /// A signed request can be replayed within the window; that is harmless here because the hook
    /// only reads (the same call gets the same answer), and the window bounds it.
    public var hmacSecrets: [String]
    /// Whether v1 signatures (`sha256=<hex>` over `timestamp + "." + body`, which a captured
    /// signature could reuse on another path or query) are still accepted: only while callers
    /// move to v2. Each accepted one counts in ``HookMetrics/v1SignaturesLabel``.
    public var acceptsV1Signatures: Bool
    /// How far a signature's timestamp may be from the server's clock, either way.
    public var replayWindowSeconds: Int64
    /// The largest request body accepted (a larger one is answered 413).
    public var maximumBodyBytes: Int
    /// The largest answer rendered (Amazon Connect rejects a Lambda answer over 32 KB).
    public var maximumAnswerBytes: Int

    /// The timestamp header of signed requests.
    public static let timestampHeader = "X-Switchboard-Timestamp"
    /// The signature header of signed requests.
    public static let signatureHeader = "X-Switchboard-Signature"

    /// Creates a configuration.
    public init(
        bearerTokens: [String] = [],
        hmacSecrets: [String] = [],
        acceptsV1Signatures: Bool = false,
        replayWindowSeconds: Int64 = 300,
        maximumBodyBytes: Int = 64 * 1024,
        maximumAnswerBytes: Int = 32 * 1024
    ) {
        self.bearerTokens = bearerTokens.filter { !$0.isEmpty }
        self.hmacSecrets = hmacSecrets.filter { !$0.isEmpty }
        self.acceptsV1Signatures = acceptsV1Signatures
        self.replayWindowSeconds = replayWindowSeconds
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumAnswerBytes = maximumAnswerBytes
    }

    /// Whether any credential is required.
    public var requiresAuthentication: Bool { !bearerTokens.isEmpty || !hmacSecrets.isEmpty }
}
