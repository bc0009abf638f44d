import Crypto
import Foundation
import _CryptoExtras

/// Verifies OAuth 2.0 access tokens that are JWTs (RFC 9068): an RS256 or ES256 signature by a
/// key of the issuer's JWKS, the issuer, the audience, the expiry and not-before.
///
/// The audience is the token's `aud` (a string or an array); an access token without `aud`
/// (Amazon Cognito's) matches by its `client_id` instead.
struct JWTVerifier: Sendable {
    /// Why a token is refused; the reason goes to the client in the 401's body.
    enum Failure: Error, Hashable, Sendable {
        case malformed
        case unsupportedAlgorithm(String)
        case unknownKey(String?)
        case badSignature
        case wrongIssuer
        case wrongAudience
        case expired
        case notYetValid

        var reason: String {
            switch self {
            case .malformed: "the access token is not a JWT"
            case .unsupportedAlgorithm(let alg): "the token's algorithm \(alg) is not accepted (RS256, ES256)"
            case .unknownKey(let kid): "the issuer publishes no key \(kid ?? "without an id") in its JWKS"
            case .badSignature: "the token's signature does not verify"
            case .wrongIssuer: "the token was issued by another issuer"
            case .wrongAudience: "the token is not meant for this server (audience)"
            case .expired: "the token has expired"
            case .notYetValid: "the token is not valid yet"
            }
        }
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    /// The claims checked.
    struct Claims: Decodable, Sendable {
        var iss: String?
        var sub: String?
        var aud: Audience?
        var exp: Double?
        var nbf: Double?
        var client_id: String?
    }

    /// `aud`: one string or several.
    enum Audience: Decodable, Sendable {
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

        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    let issuer: String
    let audiences: [String]
    let keys: JWKSCache
    /// Clock skew tolerated on `exp` and `nbf`, in seconds.
    let leewaySeconds: Double
    let now: @Sendable () -> Date

    /// Verifies `token`.
    ///
    /// - Returns: its claims.
    /// - Throws: ``Failure`` saying why the token is refused.
    func verify(_ token: some StringProtocol) async throws(Failure) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]),
            let payloadData = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let claims = try? JSONDecoder().decode(Claims.self, from: payloadData)
        else { throw .malformed }
        guard header.alg == "RS256" || header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        guard let key = await keys.key(id: header.kid), key.algorithm == header.alg else {
            throw .unknownKey(header.kid)
        }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard Self.isValid(signature: signature, of: signingInput, key: key) else { throw .badSignature }
        guard claims.iss == issuer else { throw .wrongIssuer }
        let presented = claims.aud?.values ?? claims.client_id.map { [$0] } ?? []
        guard presented.contains(where: audiences.contains) else { throw .wrongAudience }
        let seconds = now().timeIntervalSince1970
        guard let exp = claims.exp, seconds < exp + leewaySeconds else { throw .expired }
        if let nbf = claims.nbf, seconds + leewaySeconds < nbf { throw .notYetValid }
        return claims
    }

    static func isValid(signature: Data, of input: Data, key: JSONWebKeySet.Key) -> Bool {
        switch key {
        case .rsa(let publicKey):
            return publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input),
                padding: .insecurePKCS1v1_5)
        case .p256(let publicKey):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return publicKey.isValidSignature(parsed, for: SHA256.hash(data: input))
        }
    }
}
