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
    /// `X-Switchboard-Signature: sha256=<hex>`, the HMAC of `timestamp + "." + body` under any of
    /// them: during a rotation the new and the old secret are both accepted until every caller
    /// signs with the new one.
    ///
    /// A signed request can be replayed within the window; that is harmless here because the hook
    /// only reads (the same call gets the same answer), and the window bounds it.
    public var hmacSecrets: [String]
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
        replayWindowSeconds: Int64 = 300,
        maximumBodyBytes: Int = 64 * 1024,
        maximumAnswerBytes: Int = 32 * 1024
    ) {
        self.bearerTokens = bearerTokens.filter { !$0.isEmpty }
        self.hmacSecrets = hmacSecrets.filter { !$0.isEmpty }
        self.replayWindowSeconds = replayWindowSeconds
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumAnswerBytes = maximumAnswerBytes
    }

    /// Whether any credential is required.
    public var requiresAuthentication: Bool { !bearerTokens.isEmpty || !hmacSecrets.isEmpty }
}
