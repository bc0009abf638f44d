import Foundation
import Hummingbird
import Primitives

/// Checks the credentials of hook requests: a bearer token or an HMAC-SHA256 signature of the
/// body with a timestamp inside the replay window.
struct HookAuthenticator: Sendable {
    /// Why a request was refused (answered 401 with the reason).
    enum Failure: Error, Hashable, Sendable {
        case missingCredentials
        case wrongToken
        case badTimestamp
        case expiredSignature
        case badSignatureFormat
        case wrongSignature

        var reason: String {
            switch self {
            case .missingCredentials:
                "authentication required: send Authorization: Bearer <token>, or sign the body with "
                    + "\(HookConfiguration.timestampHeader) and \(HookConfiguration.signatureHeader)"
            case .wrongToken: "the bearer token is not accepted"
            case .badTimestamp: "\(HookConfiguration.timestampHeader) must be Unix seconds"
            case .expiredSignature: "the signature's timestamp is outside the replay window"
            case .badSignatureFormat: "\(HookConfiguration.signatureHeader) must be sha256=<64 hex digits>"
            case .wrongSignature: "the signature does not match the body"
            }
        }
    }

    static let timestampField = HTTPFields.Element.Name(HookConfiguration.timestampHeader)!
    static let signatureField = HTTPFields.Element.Name(HookConfiguration.signatureHeader)!

    private let tokens: AccessTokens
    private let secrets: [[UInt8]]
    private let replayWindowSeconds: Int64
    /// The body limit applied when collecting a signed body.
    let maximumBodyBytes: Int
    private let now: @Sendable () -> Int64

    /// Creates an authenticator.
    ///
    /// - Parameter now: The clock, in Unix seconds (replaceable in tests).
    init(
        configuration: HookConfiguration, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.tokens = AccessTokens(configuration.bearerTokens)
        self.secrets = configuration.hmacSecrets.map { Array($0.utf8) }
        self.replayWindowSeconds = configuration.replayWindowSeconds
        self.maximumBodyBytes = configuration.maximumBodyBytes
        self.now = now
    }

    /// Whether any credential is required.
    var isRequired: Bool { !tokens.isOpen || !secrets.isEmpty }

    /// Checks a request's credentials. A signed request's body is collected (up to the body
    /// limit) to verify it, and stays readable by the handler.
    ///
    /// - Returns: `nil` when the request may proceed, else why not.
    /// - Throws: an `HTTPResponseError` with status 413 when a signed body exceeds the limit.
    func authenticate(_ request: inout Request) async throws -> Failure? {
        guard isRequired else { return nil }
        var failure = Failure.missingCredentials
        if !tokens.isOpen, let authorization = request.headers[.authorization] {
            if let token = AccessTokens.bearer(authorization), tokens.accepts(token) { return nil }
            failure = .wrongToken
        }
        if !secrets.isEmpty, let timestamp = request.headers[HookAuthenticator.timestampField],
            let signature = request.headers[HookAuthenticator.signatureField]
        {
            let body = try await request.collectBody(upTo: maximumBodyBytes)
            return verify(timestamp: timestamp, signature: signature, body: body.readableBytesView)
        }
        return failure
    }

    /// Verifies a signature of `timestamp + "." + body` under any of the secrets.
    func verify(timestamp: String, signature: String, body: some Collection<UInt8>) -> Failure? {
        guard !secrets.isEmpty else { return .missingCredentials }
        guard timestamp.utf8.count <= 12, timestamp.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let seconds = Int64(timestamp)
        else { return .badTimestamp }
        guard abs(now() - seconds) <= replayWindowSeconds else { return .expiredSignature }
        let trimmed = signature.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("sha256="),
            let presented = HMACSHA256.bytes(hex: trimmed.dropFirst(7)), presented.count == HMACSHA256.byteCount
        else { return .badSignatureFormat }
        var message = Array(timestamp.utf8)
        message.append(UInt8(ascii: "."))
        message.append(contentsOf: body)
        for secret in secrets
        where constantTimeEquals(HMACSHA256.authenticationCode(for: message, key: secret), presented) {
            return nil
        }
        return .wrongSignature
    }

    /// The value of a signature header for a body, as a client computes it.
    static func signature(timestamp: String, body: some Sequence<UInt8>, secret: String) -> String {
        var message = Array(timestamp.utf8)
        message.append(UInt8(ascii: "."))
        message.append(contentsOf: body)
        return "sha256=" + Hexadecimal.encode(HMACSHA256.authenticationCode(for: message, key: Array(secret.utf8)))
    }

}

/// Refuses requests of a route group without valid hook credentials (401, JSON reason).
struct HookAuthenticationMiddleware<Context: RequestContext>: RouterMiddleware {
    let authenticator: HookAuthenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var request = request
        do {
            if let failure = try await authenticator.authenticate(&request) {
                throw HookResponses.unauthorized(failure)
            }
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: authenticator.maximumBodyBytes)
        }
        return try await next(request, context)
    }
}
