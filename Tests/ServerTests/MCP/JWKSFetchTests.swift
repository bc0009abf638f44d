import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import Server

/// Fetching the issuer's keys: https only (http to loopback for tests), no redirects, bounded.
@Suite("The issuer's JWKS fetch")
struct JWKSFetchTests {
    /// A server of JWKS documents: a good one, a redirect to it, and one of 10 MB.
    static func router() throws -> Router<BasicRequestContext> {
        let document = try JWTVerifierTests.jwks()
        let router = Router()
        router.get("/jwks") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: document))) }
        router.get("/moved") { _, _ in Response(status: .found, headers: [.location: "/jwks"]) }
        router.get("/large") { _, _ in
            var padded = #"{"keys": [], "padding": ""#
            padded += String(repeating: "x", count: 10 << 20)
            padded += #""}"#
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: padded)))
        }
        return router
    }

    @Test("a good document is fetched; a redirect, a 10 MB document and a non-loopback http URL are refused")
    func fetch() async throws {
        let app = Application(router: try Self.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let base = "http://127.0.0.1:\(port)"
            let good = try await JWKSCache.fetcher(url: URL(string: "\(base)/jwks")!)()
            #expect(try JWKSCache.verificationKeys(json: good).map(\.kid) == ["ec-1", "rsa-1"])
            await #expect(throws: (any Error).self, "a redirect is not followed") {
                try await JWKSCache.fetcher(url: URL(string: "\(base)/moved")!)()
            }
            await #expect(throws: (any Error).self, "a 10 MB JWKS is not read") {
                try await JWKSCache.fetcher(url: URL(string: "\(base)/large")!)()
            }
            // The cache keeps working on what it has: no keys, so every token is refused.
            let cache = JWKSCache(
                logger: Logger(label: "test"), fetch: JWKSCache.fetcher(url: URL(string: "\(base)/large")!))
            #expect(await cache.key(id: "ec-1") == nil)
        }
        await #expect(throws: (any Error).self, "plain http beyond loopback is never fetched") {
            try await JWKSCache.fetcher(url: URL(string: "http://issuer.example/.well-known/jwks.json")!)()
        }
        #expect(JWKSCache.isAllowed(URL(string: "https://issuer.example/.well-known/jwks.json")!))
        #expect(JWKSCache.isAllowed(URL(string: "http://localhost:8080/jwks")!))
        #expect(!JWKSCache.isAllowed(URL(string: "http://10.0.0.1/jwks")!))
        #expect(!JWKSCache.isAllowed(URL(string: "ftp://issuer.example/jwks")!))
    }
}
