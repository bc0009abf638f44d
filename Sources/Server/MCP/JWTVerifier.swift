import Foundation
import JWTKit
import Primitives

/// Verifies OAuth 2.0 access tokens that are JWTs (RFC 9068) with jwt-kit: an RS256 or ES256
/// signature by a key of the issuer's JWKS (``JWKSCache``), then the issuer, the audience, the
/// expiry, not-before, the token type and the scopes.
///
/// The audience is the token's `aud` (a string or an array); an access token without `aud`
/// (Amazon Cognito's) matches by its `client_id` instead. An ID token is refused: its `typ`,
/// when present, must be `at+jwt` (or `JWT`), and Cognito's `token_use`, when present, `access`.
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
            case .notAnAccessToken: "the token is not an access token (token_use)"
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
        /// RFC 9068's space-separated scopes.
        var scope: String?
        /// The array (or string) of scopes some issuers write instead (Okta, Entra ID).
        var scp: StringOrStrings?

        /// jwt-kit calls this after the signature verified; the claims are checked by the
        /// verifier, which says which one failed.
        func verify(using algorithm: some JWTAlgorithm) async throws {}

        /// The scopes granted, from `scope` and `scp`.
        var scopes: Set<String> {
            Set((scope ?? "").split(separator: " ").map(String.init) + (scp?.values ?? []))
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

        var values: [String] {
            switch self {
            case .one(let value): value.split(separator: " ").map(String.init)
            case .many(let values): values
            }
        }
    }

    /// The `typ` values of an access token (RFC 9068 §2.1; plain `JWT` as many issuers write).
    static let accessTokenTypes: Set<String> = ["at+jwt", "application/at+jwt", "jwt"]

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
        if let typ = header.typ, !Self.accessTokenTypes.contains(typ.lowercased()) { throw .unsupportedType(typ) }
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
