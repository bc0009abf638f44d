import Foundation
import Hummingbird
import Metrics
import Primitives

/// Checks the credentials of hook requests: a bearer token or an HMAC-SHA256 signature of the
/// request with a timestamp inside the replay window.
///
/// A v2 signature (`X-Switchboard-Signature: v2=<hex>`) covers the timestamp, the method, the
/// request target exactly as sent (path and query, percent-encoded as on the wire) and the body,
/// separated by newlines: a captured signature works for that one request only. A v1 signature
/// (`sha256=<hex>`, over `timestamp.body`) is accepted only while
/// ``HookConfiguration/acceptsV1Signatures`` is set, during the callers' move to v2.
struct HookAuthenticator: Sendable {
    /// Why a request was refused (answered 401 with the reason).
    enum Failure: Error, Hashable, Sendable {
        case missingCredentials
        case wrongToken
        case badTimestamp
        case expiredSignature
        case badSignatureFormat
        case v1NotAccepted
        case wrongSignature

        var reason: String {
            switch self {
            case .missingCredentials:
                "authentication required: send Authorization: Bearer <token>, or sign the body with "
                    + "\(HookConfiguration.timestampHeader) and \(HookConfiguration.signatureHeader)"
            case .wrongToken: "the bearer token is not accepted"
            case .badTimestamp: "\(HookConfiguration.timestampHeader) must be Unix seconds"
            case .expiredSignature: "the signature's timestamp is outside the replay window"
            case .badSignatureFormat: "\(HookConfiguration.signatureHeader) must be v2=<64 hex digits>"
            case .v1NotAccepted:
                "v1 signatures (sha256=, over the timestamp and body only) are not accepted: sign v2 (timestamp, method, target and body)"
            case .wrongSignature: "the signature does not match the request"
            }
        }
    }

    static let timestampField = HTTPFields.Element.Name(HookConfiguration.timestampHeader)!
    static let signatureField = HTTPFields.Element.Name(HookConfiguration.signatureHeader)!

    private let tokens: AccessTokens
    private let secrets: [[UInt8]]
    private let replayWindowSeconds: Int64
    private let acceptsV1: Bool
    private let v1Requests = Counter(label: HookMetrics.v1SignaturesLabel)
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
        self.acceptsV1 = configuration.acceptsV1Signatures
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
            return verify(
                timestamp: timestamp, signature: signature, method: request.method.rawValue,
                target: request.head.path ?? "", body: body.readableBytesView)
        }
        return failure
    }

    /// Verifies a signature under any of the secrets: v2 over ``message(timestamp:method:target:body:)``,
    /// or, while accepted, v1 over `timestamp + "." + body`.
    func verify(
        timestamp: String, signature: String, method: String, target: String, body: some Collection<UInt8>
    ) -> Failure? {
        guard !secrets.isEmpty else { return .missingCredentials }
        guard timestamp.utf8.count <= 12, timestamp.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let seconds = Int64(timestamp)
        else { return .badTimestamp }
        guard abs(now() - seconds) <= replayWindowSeconds else { return .expiredSignature }
        let trimmed = signature.trimmingCharacters(in: .whitespaces)
        let message: [UInt8]
        let hex: Substring
        let isV2 = trimmed.lowercased().hasPrefix("v2=")
        if isV2 {
            hex = trimmed.dropFirst(3)
            message = Self.message(timestamp: timestamp, method: method, target: target, body: body)
        } else if trimmed.lowercased().hasPrefix("sha256=") {
            guard acceptsV1 else { return .v1NotAccepted }
            hex = trimmed.dropFirst(7)
            message = Array(timestamp.utf8) + [UInt8(ascii: ".")] + Array(body)
        } else {
            return .badSignatureFormat
        }
        guard let presented = HMACSHA256.bytes(hex: hex), presented.count == HMACSHA256.byteCount else {
            return .badSignatureFormat
        }
        for secret in secrets
        where constantTimeEquals(HMACSHA256.authenticationCode(for: message, key: secret), presented) {
            if !isV2 { v1Requests.increment() }
            return nil
        }
        return .wrongSignature
    }

    /// What a v2 signature covers: `timestamp`, `method`, `target` (the request target as sent:
    /// path and query) and the body, the first three each followed by a line feed.
    static func message(timestamp: String, method: String, target: String, body: some Sequence<UInt8>) -> [UInt8] {
        var message = Array("\(timestamp)\n\(method)\n\(target)\n".utf8)
        message.append(contentsOf: body)
        return message
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
