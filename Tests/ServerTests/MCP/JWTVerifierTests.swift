import Crypto
import Foundation
import Logging
import Testing
import _CryptoExtras

@testable import Server

/// OAuth access tokens: RS256 and ES256 signatures against a JWKS, issuer, audience, expiry.
@Suite("JWT access tokens")
struct JWTVerifierTests {
    static let issuer = "https://issuer.test"
    static let audience = "switchboard"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let ecKey = P256.Signing.PrivateKey()
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func jwks() throws -> Data {
        let point = ecKey.publicKey.rawRepresentation
        let rsa = try rsaKey.publicKey.getKeyPrimitives()
        let document: JSONValue = [
            "keys": [
                [
                    "kty": "EC", "crv": "P-256", "kid": "ec-1", "use": "sig",
                    "x": .string(base64URL(point.prefix(32))), "y": .string(base64URL(point.suffix(32))),
                ],
                [
                    "kty": "RSA", "kid": "rsa-1", "alg": "RS256",
                    "n": .string(base64URL(rsa.modulus)), "e": .string(base64URL(rsa.publicExponent)),
                ],
                ["kty": "oct", "kid": "secret", "k": "c2VjcmV0"],
                // An RSA key stated for RS384: not one this server accepts, so not kept.
                [
                    "kty": "RSA", "kid": "rsa-384", "alg": "RS384",
                    "n": .string(base64URL(rsa.modulus)), "e": .string(base64URL(rsa.publicExponent)),
                ],
                // An encryption key: never used to verify.
                [
                    "kty": "EC", "crv": "P-256", "kid": "ec-enc", "use": "enc",
                    "x": .string(base64URL(point.prefix(32))), "y": .string(base64URL(point.suffix(32))),
                ],
            ]
        ]
        return try JSONValue.encoder.encode(document)
    }

    static func token(alg: String = "ES256", kid: String = "ec-1", typ: String? = "at+jwt", claims: JSONValue) throws
        -> String
    {
        var members: [String: JSONValue] = ["alg": .string(alg), "kid": .string(kid)]
        if let typ { members["typ"] = .string(typ) }
        let header = base64URL(try JSONValue.encoder.encode(JSONValue.object(members)))
        let payload = base64URL(try JSONValue.encoder.encode(claims))
        let input = Data("\(header).\(payload)".utf8)
        let signature: Data =
            alg == "RS256"
            ? try rsaKey.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation
            : try ecKey.signature(for: input).rawRepresentation
        return "\(header).\(payload).\(base64URL(signature))"
    }

    static func claims(aud: JSONValue? = .string(audience), iss: String = issuer, exp: Double = 1_800_000_600)
        -> JSONValue
    {
        var members: [String: JSONValue] = ["iss": .string(iss), "exp": .number(exp), "sub": "gateway"]
        if let aud { members["aud"] = aud }
        return .object(members)
    }

    static func verifier(scopes: [String] = []) throws -> JWTVerifier {
        let keys = try jwks()
        return JWTVerifier(
            issuer: issuer, audiences: [audience], requiredScopes: scopes,
            keys: JWKSCache(logger: Logger(label: "test"), fetch: { keys }), leewaySeconds: 30, now: { now })
    }

    /// `claims` with `extra` members.
    static func claims(_ extra: [String: JSONValue], aud: JSONValue? = .string(audience)) -> JSONValue {
        guard case .object(var members) = claims(aud: aud) else { return claims() }
        for (key, value) in extra { members[key] = value }
        return .object(members)
    }

    static func failure(_ token: String, scopes: [String] = []) async throws -> JWTVerifier.Failure? {
        let verifier = try verifier(scopes: scopes)
        do {
            _ = try await verifier.verify(token)
            return nil
        } catch {
            return error
        }
    }

    @Test("ES256 and RS256 tokens of the issuer for this audience are accepted")
    func accepted() async throws {
        #expect(try await Self.failure(Self.token(claims: Self.claims())) == nil)
        #expect(try await Self.failure(Self.token(alg: "RS256", kid: "rsa-1", claims: Self.claims())) == nil)
        #expect(try await Self.failure(Self.token(claims: Self.claims(aud: ["other", "switchboard"]))) == nil)
        // Cognito: no aud, the client id is the audience.
        var cognito = Self.claims(aud: nil)
        if case .object(var members) = cognito {
            members["client_id"] = "switchboard"
            cognito = .object(members)
        }
        #expect(try await Self.failure(Self.token(claims: cognito)) == nil)
    }

    @Test("expired, wrong audience, wrong issuer, unknown key, forged and malformed tokens are refused")
    func refused() async throws {
        #expect(try await Self.failure(Self.token(claims: Self.claims(exp: 1_799_999_000))) == .expired)
        #expect(try await Self.failure(Self.token(claims: Self.claims(aud: "someone-else"))) == .wrongAudience)
        #expect(try await Self.failure(Self.token(claims: Self.claims(iss: "https://evil.test"))) == .wrongIssuer)
        #expect(try await Self.failure(Self.token(kid: "nope", claims: Self.claims())) == .unknownKey("nope"))
        #expect(
            try await Self.failure(Self.token(alg: "RS256", kid: "ec-1", claims: Self.claims())) == .unknownKey("ec-1"))
        let good = try Self.token(claims: Self.claims())
        let parts = good.split(separator: ".")
        let otherPayload = Self.base64URL(try JSONValue.encoder.encode(Self.claims(aud: "x")))
        #expect(try await Self.failure("\(parts[0]).\(otherPayload).\(parts[2])") == .badSignature)
        let none = Self.base64URL(Data(#"{"alg":"none"}"#.utf8))
        #expect(try await Self.failure("\(none).\(parts[1]).") == .unsupportedAlgorithm("none"))
        #expect(try await Self.failure("not-a-jwt") == .malformed)
        // A key stated for another algorithm, and an encryption key, are not kept.
        #expect(
            try await Self.failure(Self.token(alg: "RS256", kid: "rsa-384", claims: Self.claims()))
                == .unknownKey("rsa-384"))
        #expect(try await Self.failure(Self.token(kid: "ec-enc", claims: Self.claims())) == .unknownKey("ec-enc"))
    }

    @Test("only an access token: typ at+jwt, token_use access, Keycloak's Bearer or the required scopes")
    func idTokens() async throws {
        #expect(try await Self.failure(Self.token(typ: "at+jwt", claims: Self.claims())) == nil)
        #expect(try await Self.failure(Self.token(typ: "application/at+jwt", claims: Self.claims())) == nil)
        #expect(
            try await Self.failure(Self.token(typ: "id+jwt", claims: Self.claims())) == .unsupportedType("id+jwt"))
        #expect(try await Self.failure(Self.token(typ: "JOSE", claims: Self.claims())) == .unsupportedType("JOSE"))
        // An OIDC ID token for this server's client: typ JWT (or none), aud the client, nothing
        // saying "access". It passed when typ JWT was enough.
        #expect(try await Self.failure(Self.token(typ: "JWT", claims: Self.claims())) == .notAnAccessToken)
        #expect(try await Self.failure(Self.token(typ: nil, claims: Self.claims())) == .notAnAccessToken)
        #expect(
            try await Self.failure(Self.token(typ: "JWT", claims: Self.claims(["typ": "ID"]))) == .notAnAccessToken)
        // Cognito's ID token: aud is the app client, token_use id; its access token says access.
        #expect(
            try await Self.failure(Self.token(claims: Self.claims(["token_use": "id"]))) == .notAnAccessToken)
        #expect(try await Self.failure(Self.token(typ: nil, claims: Self.claims(["token_use": "access"]))) == nil)
        // Keycloak's access token: typ JWT in the header, Bearer in the claims.
        #expect(try await Self.failure(Self.token(typ: "JWT", claims: Self.claims(["typ": "Bearer"]))) == nil)
        // Entra ID or Okta: typ JWT, and the scopes the server requires.
        #expect(
            try await Self.failure(
                Self.token(typ: "JWT", claims: Self.claims(["scp": "mcp"])), scopes: ["mcp"]) == nil)
    }

    @Test("a string aud is one audience, never split on spaces")
    func oneAudience() async throws {
        #expect(
            try await Self.failure(Self.token(claims: Self.claims(aud: "someone-else switchboard"))) == .wrongAudience)
        #expect(
            try await Self.failure(Self.token(claims: Self.claims(aud: ["someone-else", "switchboard"]))) == nil)
    }

    @Test("SWITCHBOARD_MCP_OAUTH_SCOPES: a token needs every scope, from scope or scp")
    func scopes() async throws {
        let required = ["switchboard/read", "mcp"]
        #expect(
            try await Self.failure(Self.token(claims: Self.claims()), scopes: required)
                == .missingScope("switchboard/read"))
        #expect(
            try await Self.failure(
                Self.token(claims: Self.claims(["scope": "openid switchboard/read"])), scopes: required)
                == .missingScope("mcp"))
        #expect(
            try await Self.failure(
                Self.token(claims: Self.claims(["scope": "mcp openid switchboard/read"])), scopes: required) == nil)
        #expect(
            try await Self.failure(
                Self.token(claims: Self.claims(["scp": ["switchboard/read", "mcp"]])), scopes: required)
                == nil)
        #expect(try await Self.failure(Self.token(claims: Self.claims(["scope": "anything"]))) == nil)
    }
}
