import Foundation
import JWTKit
import Primitives

/// Verifies OAuth 2.0 access tokens that are JWTs (RFC 9068) with jwt-kit: an RS256 or ES256
/// signature by a key of the issuer's JWKS (``JWKSCache``), then the issuer, the audience, the
/// expiry, not-before, the token type and the scopes.
///
/// The audience is the token's `aud`: one value (a string, taken whole) or an array; an access
/// token without `aud` (Amazon Cognito's) matches by its `client_id` instead.
///
/// Only an access token passes, never an ID token of the same issuer (whose `aud` may well be
/// this server's client): it must say it is one, by its header's `typ` `at+jwt` (RFC 9068),
/// Cognito's `token_use` `access`, Keycloak's `typ` claim `Bearer`, or by holding every scope of
/// `SWITCHBOARD_MCP_OAUTH_SCOPES` (an ID token carries none). A `typ` of another kind than a JWT's
/// is refused outright, and so is a `token_use` other than `access`.
struct JWTVerifier: Sendable {
    /// Why a token is refused; the reason goes to the client in the 401's body.
    enum Failure: Error, Hashable, Sendable {
        case malformed
        case unsupportedAlgorithm(String)
        case unsupportedType(String)
        case unknownKey(String?)
        case badSignature
        case wrongIssuer
        case wrongAudience
        case notAnAccessToken
        case missingScope(String)
        case expired
        case notYetValid

        var reason: String {
            switch self {
            case .malformed: "the access token is not a JWT"
            case .unsupportedAlgorithm(let alg): "the token's algorithm \(alg) is not accepted (RS256, ES256)"
            case .unsupportedType(let typ): "the token's type \(typ) is not an access token's (at+jwt)"
            case .unknownKey(let kid): "the issuer publishes no key \(kid ?? "without an id") for it in its JWKS"
            case .badSignature: "the token's signature does not verify"
            case .wrongIssuer: "the token was issued by another issuer"
            case .wrongAudience: "the token is not meant for this server (audience)"
            case .notAnAccessToken:
                "the token is not an access token: it has no typ at+jwt, no token_use access, and holds no scope the server requires"
            case .missingScope(let scope): "the token lacks the scope \(scope)"
            case .expired: "the token has expired"
            case .notYetValid: "the token is not valid yet"
            }
        }
    }

    /// The header members checked before the signature.
    private struct Header: Decodable {
        var alg: String
        var kid: String?
        var typ: String?
    }

    /// The claims checked, decoded by jwt-kit once the signature verified.
    struct Claims: JWTPayload {
        var iss: String?
        var sub: String?
        var aud: StringOrStrings?
        var exp: Double?
        var nbf: Double?
        var client_id: String?
        var token_use: String?
        /// Keycloak's token kind (`Bearer` for an access token, `ID` for an ID token).
        var typ: String?
        /// RFC 9068's space-separated scopes.
        var scope: String?
        /// The array (or string) of scopes some issuers write instead (Okta, Entra ID).
        var scp: StringOrStrings?

        /// jwt-kit calls this after the signature verified; the claims are checked by the
        /// verifier, which says which one failed.
        func verify(using algorithm: some JWTAlgorithm) async throws {}

        /// The scopes granted, from `scope` and `scp`.
        var scopes: Set<String> {
            let scp: [String] =
                switch self.scp {
                case .one(let text): text.split(separator: " ").map(String.init)
                case .many(let values): values
                case nil: []
                }
            return Set((scope ?? "").split(separator: " ").map(String.init) + scp)
        }
    }

    /// One string or several (`aud`, `scp`).
    enum StringOrStrings: Codable, Sendable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .one(let value): try container.encode(value)
            case .many(let values): try container.encode(values)
            }
        }

        /// The values: a string is one value, whole.
        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    /// The header `typ` values a token may have: a JWT's (RFC 7519 §5.1, as many issuers write
    /// it on every token) or an access token's (RFC 9068 §2.1).
    static let acceptedTypes: Set<String> = ["at+jwt", "application/at+jwt", "jwt"]
    /// The header `typ` values that say a token is an access token (RFC 9068 §2.1).
    static let accessTokenTypes: Set<String> = ["at+jwt", "application/at+jwt"]

    let issuer: String
    let audiences: [String]
    /// Scopes a token must all hold; empty for none.
    let requiredScopes: [String]
    let keys: JWKSCache
    /// Clock skew tolerated on `exp` and `nbf`, in seconds.
    let leewaySeconds: Double
    let now: @Sendable () -> Date

    init(
        issuer: String, audiences: [String], requiredScopes: [String] = [], keys: JWKSCache, leewaySeconds: Double,
        now: @escaping @Sendable () -> Date
    ) {
        self.issuer = issuer
        self.audiences = audiences
        self.requiredScopes = requiredScopes
        self.keys = keys
        self.leewaySeconds = leewaySeconds
        self.now = now
    }

    /// Verifies `token`.
    ///
    /// - Returns: its claims.
    /// - Throws: ``Failure`` saying why the token is refused.
    func verify(_ token: some StringProtocol) async throws(Failure) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]),
            let header = try? JSONCoding.decoder.decode(Header.self, from: headerData)
        else { throw .malformed }
        guard header.alg == "RS256" || header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        if let typ = header.typ, !Self.acceptedTypes.contains(typ.lowercased()) { throw .unsupportedType(typ) }
        // Each key verifies the one algorithm of its type: a header may not choose another.
        guard let (collection, algorithm) = await keys.key(id: header.kid), algorithm == header.alg else {
            throw .unknownKey(header.kid)
        }
        let claims: Claims
        do {
            claims = try await collection.verify(String(token), as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch let error as JWTError where error.errorType == .malformedToken {
            throw .malformed
        } catch {
            throw .badSignature
        }
        guard claims.iss == issuer else { throw .wrongIssuer }
        let presented = claims.aud?.values ?? claims.client_id.map { [$0] } ?? []
        guard presented.contains(where: audiences.contains) else { throw .wrongAudience }
        if let use = claims.token_use, use != "access" { throw .notAnAccessToken }
        let seconds = now().timeIntervalSince1970
        guard let exp = claims.exp, seconds < exp + leewaySeconds else { throw .expired }
        if let nbf = claims.nbf, seconds + leewaySeconds < nbf { throw .notYetValid }
        let granted = claims.scopes
        if let missing = requiredScopes.first(where: { !granted.contains($0) }) { throw .missingScope(missing) }
        let saysAccess =
            header.typ.map { Self.accessTokenTypes.contains($0.lowercased()) } == true
            || claims.token_use == "access" || claims.typ?.lowercased() == "bearer"
        guard saysAccess || !requiredScopes.isEmpty else { throw .notAnAccessToken }
        return claims
    }

    /// The bytes of base64url text without padding (RFC 4648 §5), or `nil`.
    static func base64URL(_ text: some StringProtocol) -> Data? {
        var base64 = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        while base64.utf8.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }
}
