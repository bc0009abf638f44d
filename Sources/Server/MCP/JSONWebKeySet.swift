import Crypto
import Foundation
import _CryptoExtras

/// The verification keys of a JSON Web Key Set (RFC 7517), by key id: RSA keys for RS256 and
/// P-256 keys for ES256. Other keys (symmetric, other curves, encryption keys) are skipped.
struct JSONWebKeySet: Sendable {
    /// A public key that verifies JWT signatures.
    enum Key: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)

        /// The JWS `alg` this key verifies.
        var algorithm: String {
            switch self {
            case .rsa: "RS256"
            case .p256: "ES256"
            }
        }
    }

    private struct Document: Decodable {
        var keys: [Entry]
    }

    private struct Entry: Decodable {
        var kty: String
        var kid: String?
        var use: String?
        var crv: String?
        var n: String?
        var e: String?
        var x: String?
        var y: String?
    }

    /// The keys by id (`""` for a key without one).
    let keys: [String: Key]

    /// Parses a JWKS document.
    ///
    /// - Throws: `DecodingError` when it is not a JWKS.
    init(json: Data) throws {
        let document = try JSONDecoder().decode(Document.self, from: json)
        var keys: [String: Key] = [:]
        for entry in document.keys where entry.use == nil || entry.use == "sig" {
            if let key = Self.key(entry) { keys[entry.kid ?? ""] = key }
        }
        self.keys = keys
    }

    init(keys: [String: Key]) {
        self.keys = keys
    }

    private static func key(_ entry: Entry) -> Key? {
        switch entry.kty {
        case "RSA":
            guard let n = entry.n.flatMap(Base64URL.decode), let e = entry.e.flatMap(Base64URL.decode),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { return nil }
            return .rsa(key)
        case "EC":
            guard entry.crv == "P-256", let x = entry.x.flatMap(Base64URL.decode),
                let y = entry.y.flatMap(Base64URL.decode), x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { return nil }
            return .p256(key)
        default:
            return nil
        }
    }
}

/// Base64url without padding (RFC 4648 §5), as JOSE writes it.
enum Base64URL {
    /// The bytes of base64url text, or `nil` when it is not base64url.
    static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || text.hasSuffix("=") else { return nil }
        while base64.utf8.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }
}
