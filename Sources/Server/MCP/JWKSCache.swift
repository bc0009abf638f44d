import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOHTTP1
import Primitives

/// The issuer's signing keys, fetched from its JWKS URL, cached and refreshed, held as a jwt-kit
/// `JWTKeyCollection`.
///
/// Keys are fetched on first use and again when older than ``maximumAge``; a token naming an
/// unknown key id refetches at once (the issuer rotated), at most once per
/// ``minimumRefreshInterval`` so that forged key ids cannot make us hammer the issuer. When a
/// refresh fails, the keys already known stay in use.
///
/// Only signing keys of the two accepted algorithms are kept, each pinned to its key type: an RSA
/// key verifies RS256 only, a P-256 key ES256 only, whatever the token's header says
/// (``verificationKeys(json:)``).
actor JWKSCache {
    /// Fetches the JWKS document.
    typealias Fetch = @Sendable () async throws -> Data

    /// The keys of one fetch: the collection and the algorithm each key id verifies.
    struct Keys: Sendable {
        var collection: JWTKeyCollection
        var algorithms: [String: String]
    }

    /// The largest JWKS document read; an issuer's is a few kilobytes.
    static let maximumDocumentBytes = 1 << 20

    let maximumAge: Duration
    let minimumRefreshInterval: Duration
    private let fetch: Fetch
    private let logger: Logger
    private var keys: Keys?
    private var fetchedAt: ContinuousClock.Instant?
    private var attemptedAt: ContinuousClock.Instant?
    private var refreshing: Task<Keys?, Never>?

    /// - Parameters:
    ///   - maximumAge: How long fetched keys are used before they are fetched again.
    ///   - minimumRefreshInterval: The least time between two fetches.
    ///   - fetch: Fetches the document.
    init(
        maximumAge: Duration = .seconds(600), minimumRefreshInterval: Duration = .seconds(30), logger: Logger,
        fetch: @escaping Fetch
    ) {
        self.maximumAge = maximumAge
        self.minimumRefreshInterval = minimumRefreshInterval
        self.logger = logger
        self.fetch = fetch
    }

    /// Why a fetch of the JWKS failed (logged; the keys known stay in use).
    struct FetchError: Error, CustomStringConvertible {
        var description: String
    }

    /// Fetches the JWKS at `url` with AsyncHTTPClient: `https` only (`http` to a loopback host, for
    /// tests), no redirects, 10 s, at most ``maximumDocumentBytes``.
    static func fetcher(url: URL) -> Fetch {
        {
            guard JWKSCache.isAllowed(url) else {
                throw FetchError(description: "the JWKS URL must be https (http only to a loopback host)")
            }
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let result: Result<Data, any Error>
            do {
                var request = HTTPClientRequest(url: url.absoluteString)
                request.headers.add(name: "Accept", value: "application/json")
                let response = try await client.execute(request, timeout: .seconds(10))
                guard response.status == .ok else {
                    throw FetchError(description: "the JWKS URL answered \(response.status.code)")
                }
                let body = try await response.body.collect(upTo: maximumDocumentBytes)
                result = .success(Data(buffer: body))
            } catch let error as NIOTooManyBytesError {
                result = .failure(
                    FetchError(description: "the JWKS is larger than \(maximumDocumentBytes) bytes: \(error)"))
            } catch {
                result = .failure(error)
            }
            try await client.shutdown()
            return try result.get()
        }
    }

    /// Whether the keys may be fetched from `url`: `https`, or `http` to a loopback host.
    static func isAllowed(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return url.host.map { LocalAccessGuard.isLoopback(host: $0) } ?? false
        default: return false
        }
    }

    /// The keys and the algorithm of key id `keyId` (`nil`: the set's key without an id).
    ///
    /// - Returns: `nil` when the issuer publishes no such key (after a refresh when allowed).
    func key(id keyId: String?) async -> (keys: JWTKeyCollection, algorithm: String)? {
        let now = ContinuousClock.now
        if keys == nil || fetchedAt.map({ now - $0 > maximumAge }) ?? true {
            await refresh(now: now)
        }
        if let found = lookUp(keyId) { return found }
        if attemptedAt.map({ now - $0 >= minimumRefreshInterval }) ?? true {
            await refresh(now: now)
        }
        return lookUp(keyId)
    }

    private func lookUp(_ keyId: String?) -> (keys: JWTKeyCollection, algorithm: String)? {
        guard let keys, let algorithm = keys.algorithms[keyId ?? ""] else { return nil }
        return (keys.collection, algorithm)
    }

    private func refresh(now: ContinuousClock.Instant) async {
        if let attemptedAt, now - attemptedAt < minimumRefreshInterval, keys != nil { return }
        if let refreshing {
            _ = await refreshing.value
            return
        }
        attemptedAt = now
        let fetch = self.fetch
        let logger = self.logger
        let task = Task<Keys?, Never> {
            do {
                return try await JWKSCache.keys(json: try await fetch(), logger: logger)
            } catch {
                logger.warning("the OAuth issuer's JWKS could not be fetched: \(error)")
                return nil
            }
        }
        refreshing = task
        let fetched = await task.value
        refreshing = nil
        if let fetched {
            keys = fetched
            fetchedAt = now
        }
    }

    /// The key collection of a JWKS document: its ``verificationKeys(json:)``, each added to
    /// jwt-kit's collection under its id (a key jwt-kit cannot read is skipped and logged).
    static func keys(json: Data, logger: Logger) async throws -> Keys {
        let collection = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        for entry in try verificationKeys(json: json) {
            do {
                let jwk = try JSONCoding.decoder.decode(JWK.self, from: try JSONValue.encoder.encode(entry.jwk))
                try await collection.add(jwk: jwk)
                algorithms[entry.kid] = entry.algorithm
            } catch {
                logger.warning(
                    "a key of the OAuth issuer's JWKS is skipped: \(error)", metadata: ["kid": "\(entry.kid)"])
            }
        }
        return Keys(collection: collection, algorithms: algorithms)
    }

    /// The signing keys of a JWKS document (RFC 7517) this server accepts, each with the one
    /// algorithm it verifies: RSA keys (RS256) and P-256 keys (ES256) whose `use` is absent or
    /// `sig` and whose `alg`, when given, is that algorithm. Only the public members are kept; a
    /// key without `kid` gets the id `""` (the first one only).
    ///
    /// - Throws: `DecodingError` when the document is not a JWKS.
    static func verificationKeys(json: Data) throws -> [(kid: String, algorithm: String, jwk: JSONValue)] {
        let document = try JSONCoding.decoder.decode(JSONValue.self, from: json)
        guard case .array(let entries)? = document["keys"] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a JWKS has an array \"keys\""))
        }
        var kept: [(kid: String, algorithm: String, jwk: JSONValue)] = []
        var seen = Set<String>()
        for entry in entries {
            guard entry["use"] == nil || entry["use"]?.stringValue == "sig" else { continue }
            let kid = entry["kid"]?.stringValue ?? ""
            guard !seen.contains(kid) else { continue }
            let algorithm: String
            var members: [String: JSONValue]
            switch entry["kty"]?.stringValue {
            case "RSA":
                guard let n = entry["n"], let e = entry["e"] else { continue }
                algorithm = "RS256"
                members = ["kty": "RSA", "n": n, "e": e]
            case "EC":
                guard entry["crv"]?.stringValue == "P-256", let x = entry["x"], let y = entry["y"] else { continue }
                algorithm = "ES256"
                members = ["kty": "EC", "crv": "P-256", "x": x, "y": y]
            default:
                continue
            }
            if let stated = entry["alg"]?.stringValue, stated != algorithm { continue }
            members["alg"] = .string(algorithm)
            members["kid"] = .string(kid)
            seen.insert(kid)
            kept.append((kid, algorithm, .object(members)))
        }
        return kept
    }
}
