import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Server

@Suite("Hook authentication: bearer tokens and HMAC signatures")
struct HookAuthenticationTests {
    typealias F = HookFixtures

    static let body = #"{"storeId":"ginza-sushi","at":"2026-06-10T18:00:00+09:00"}"#
    static let now = Int64(F.fixedNow.timeIntervalSince1970)

    func router(tokens: [String] = [F.token], secrets: [String] = [F.signingSecret], acceptsV1: Bool = false)
        -> Router<SwitchboardRequestContext>
    {
        F.router(
            configuration: HookConfiguration(
                bearerTokens: tokens, hmacSecrets: secrets, acceptsV1Signatures: acceptsV1, replayWindowSeconds: 300))
    }

    /// The headers of a v2 signature, computed as deploy/docs/aws.md ("The hook's signature") states it: HMAC-SHA256 of
    /// `timestamp \n METHOD \n target \n body`, hex, after `v2=`.
    func signed(
        _ body: String, timestamp: Int64, secret: String = F.signingSecret, method: String = "POST",
        target: String = "/v1/hooks/main"
    ) -> HTTPFields {
        let stamp = String(timestamp)
        var headers = F.jsonHeaders
        headers[HookAuthenticator.timestampField] = stamp
        let message = Array("\(stamp)\n\(method)\n\(target)\n\(body)".utf8)
        headers[HookAuthenticator.signatureField] =
            "v2=" + F.hex(HMACSHA256.authenticationCode(for: message, key: Array(secret.utf8)))
        return headers
    }

    /// The headers of a v1 signature: HMAC-SHA256 of `timestamp.body`, after `sha256=`.
    func signedV1(_ body: String, timestamp: Int64, secret: String = F.signingSecret) -> HTTPFields {
        let stamp = String(timestamp)
        var headers = F.jsonHeaders
        headers[HookAuthenticator.timestampField] = stamp
        let message = Array("\(stamp).\(body)".utf8)
        headers[HookAuthenticator.signatureField] =
            "sha256=" + F.hex(HMACSHA256.authenticationCode(for: message, key: Array(secret.utf8)))
        return headers
    }

    func status(
        _ client: some TestClientProtocol, uri: String = "/v1/hooks/main", method: HTTPRequest.Method = .post,
        headers: HTTPFields, body: String = body
    )
        async throws -> (HTTPResponse.Status, [String: String])
    {
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: method == .post ? ByteBuffer(string: body) : nil)
        return (response.status, F.object(response))
    }

    func expectStatus(
        _ expected: HTTPResponse.Status, _ result: (HTTPResponse.Status, [String: String]),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.0 == expected, "\(result.1)", sourceLocation: sourceLocation)
    }

    @Test("bearer: missing or wrong is 401 with a reason; a configured token passes", arguments: HookTestMode.allCases)
    func bearer(mode: HookTestMode) async throws {
        try await F.withClient(mode, router: router(tokens: ["other", F.token], secrets: [])) { client in
            let (missing, error) = try await status(client, headers: F.jsonHeaders)
            #expect(missing == .unauthorized)
            #expect(error["error"] == "unauthorized")
            #expect(error["reason"]?.contains("Bearer") == true)
            expectStatus(.unauthorized, try await status(client, headers: [.authorization: "Bearer wrong"]))
            expectStatus(.unauthorized, try await status(client, headers: [.authorization: "Basic \(F.token)"]))
            expectStatus(.unauthorized, try await status(client, headers: [.authorization: "Bearer \(F.token)x"]))
            let (ok, answer) = try await status(client, headers: [.authorization: "Bearer \(F.token)"])
            #expect(ok == .ok)
            #expect(answer["result"] == "open")
            expectStatus(.ok, try await status(client, headers: [.authorization: "bearer other"]))
            // The hours need the same credentials; the calendar is public.
            expectStatus(
                .unauthorized, try await status(client, uri: "/v1/stores/ginza-sushi/hours", method: .get, headers: [:])
            )
            expectStatus(
                .ok,
                try await status(
                    client, uri: "/v1/stores/ginza-sushi/hours", method: .get,
                    headers: [.authorization: "Bearer \(F.token)"]
                ))
            expectStatus(.ok, try await status(client, uri: "/v1/calendar/2026", method: .get, headers: [:]))
        }
    }

    @Test(
        "HMAC: a good signature passes; wrong, expired, future or malformed ones are 401",
        arguments: HookTestMode.allCases)
    func hmac(mode: HookTestMode) async throws {
        let body = Self.body
        let now = Self.now
        try await F.withClient(mode, router: router(tokens: [])) { client in
            expectStatus(.ok, try await status(client, headers: signed(body, timestamp: now)))
            expectStatus(.ok, try await status(client, headers: signed(body, timestamp: now - 299)))
            let (expired, reason) = try await status(client, headers: signed(body, timestamp: now - 301))
            #expect(expired == .unauthorized)
            #expect(reason["reason"]?.contains("replay window") == true)
            expectStatus(.unauthorized, try await status(client, headers: signed(body, timestamp: now + 301)))
            let (wrong, wrongReason) = try await status(client, headers: signed(body, timestamp: now, secret: "nope"))
            #expect(wrong == .unauthorized)
            #expect(wrongReason["reason"]?.contains("does not match") == true)
            // The signature covers the body: a changed body fails.
            expectStatus(
                .unauthorized,
                try await status(
                    client, headers: signed(body, timestamp: now),
                    body: body.replacingOccurrences(of: "18:00", with: "19:00")
                ))
            var malformed = signed(body, timestamp: now)
            malformed[HookAuthenticator.signatureField] = "sha1=abcdef"
            expectStatus(.unauthorized, try await status(client, headers: malformed))
            var badStamp = signed(body, timestamp: now)
            badStamp[HookAuthenticator.timestampField] = "yesterday"
            expectStatus(.unauthorized, try await status(client, headers: badStamp))
            // A signed body over the limit is 413, not a server error.
            let big = String(repeating: " ", count: 70_000) + body
            expectStatus(.contentTooLarge, try await status(client, headers: signed(big, timestamp: now), body: big))
        }
    }

    @Test("v2 covers the method, the target as sent and the body: moved to another path or query it fails")
    func signatureCoversTheRequest() async throws {
        let body = Self.body
        let now = Self.now
        try await F.withClient(.router, router: router(tokens: [])) { client in
            let main = signed(body, timestamp: now)
            expectStatus(.ok, try await status(client, headers: main))
            expectStatus(.unauthorized, try await status(client, uri: "/v1/hooks/main?lang=ja", headers: main))
            expectStatus(.unauthorized, try await status(client, uri: "/v1/hooks/reservations", headers: main))
            let query = signed(body, timestamp: now, target: "/v1/hooks/main?lang=ja")
            expectStatus(.ok, try await status(client, uri: "/v1/hooks/main?lang=ja", headers: query))
            expectStatus(.unauthorized, try await status(client, uri: "/v1/hooks/main?lang=en", headers: query))
            expectStatus(.unauthorized, try await status(client, uri: "/v1/hooks/main", headers: query))
            // The target exactly as sent: another spelling of the same query is another request.
            let encoded = signed(body, timestamp: now, target: "/v1/hooks/main?note=a%20b")
            expectStatus(.ok, try await status(client, uri: "/v1/hooks/main?note=a%20b", headers: encoded))
            expectStatus(.unauthorized, try await status(client, uri: "/v1/hooks/main?note=a+b", headers: encoded))
            // The method is signed: a GET's signature does not pass a POST.
            let get = signed(body, timestamp: now, method: "GET")
            expectStatus(.unauthorized, try await status(client, headers: get))
            // The hours route checks v2 the same way.
            let hours = signed("", timestamp: now, method: "GET", target: "/v1/stores/ginza-sushi/hours")
            expectStatus(
                .ok, try await status(client, uri: "/v1/stores/ginza-sushi/hours", method: .get, headers: hours))
            expectStatus(
                .unauthorized,
                try await status(client, uri: "/v1/stores/shibuya-trattoria/hours", method: .get, headers: hours))
        }
    }

    @Test("v2 against vectors computed with openssl, shared with the forwarder Lambda's tests")
    func vectors() {
        let authenticator = HookAuthenticator(
            configuration: HookConfiguration(hmacSecrets: ["forwarder-test-secret"]), now: { 1_767_225_600 })
        let vectors = [
            (
                "/v1/hooks/main?lang=ja", #"{"Name":"ContactFlowEvent","Details":{"Parameters":{}}}"#,
                "v2=b201bb1cd6c305b9c00c32752a0e117ac30b43b642412a925d0e75ecd28db03e"
            ),
            (
                "/base/v1/hooks/ja%2F%E5%BA%97%201?lang=ja&x=a%20b", #"{"Details":{"Parameters":{"flow":"ja/店 1"}}}"#,
                "v2=3c9d91dbc03f6b606ab8b02c8cd0c68e70a921f795dbb6f4beec9eeffccb9c86"
            ),
        ]
        for (target, body, signature) in vectors {
            #expect(
                authenticator.verify(
                    timestamp: "1767225600", signature: signature, method: "POST", target: target,
                    body: Array(body.utf8)) == nil, "\(target)")
            #expect(
                authenticator.verify(
                    timestamp: "1767225600", signature: signature, method: "POST", target: target + "&x=1",
                    body: Array(body.utf8)) == .wrongSignature)
        }
    }

    @Test("v1 is refused by default, naming v2; accepted only while SWITCHBOARD_HOOK_HMAC_ACCEPT_V1 is set")
    func v1Signatures() async throws {
        try await F.withClient(.router, router: router(tokens: [])) { client in
            let (refused, reason) = try await status(client, headers: signedV1(Self.body, timestamp: Self.now))
            #expect(refused == .unauthorized)
            #expect(reason["reason"]?.contains("v2") == true, "\(reason)")
        }
        try await F.withClient(.router, router: router(tokens: [], acceptsV1: true)) { client in
            expectStatus(.ok, try await status(client, headers: signedV1(Self.body, timestamp: Self.now)))
            expectStatus(.ok, try await status(client, headers: signed(Self.body, timestamp: Self.now)))
            expectStatus(
                .unauthorized,
                try await status(client, headers: signedV1(Self.body, timestamp: Self.now, secret: "other")))
        }
    }

    @Test("a secret rotation: the new and the old secret both pass while both are configured")
    func rotation() async throws {
        try await F.withClient(.router, router: router(tokens: [], secrets: ["new-secret", F.signingSecret])) {
            client in
            expectStatus(
                .ok, try await status(client, headers: signed(Self.body, timestamp: Self.now, secret: "new-secret")))
            expectStatus(.ok, try await status(client, headers: signed(Self.body, timestamp: Self.now)))
            expectStatus(
                .unauthorized,
                try await status(client, headers: signed(Self.body, timestamp: Self.now, secret: "other")))
        }
        // The rotation done: the old secret is refused.
        try await F.withClient(.router, router: router(tokens: [], secrets: ["new-secret"])) { client in
            expectStatus(.unauthorized, try await status(client, headers: signed(Self.body, timestamp: Self.now)))
        }
    }

    @Test("both configured: either credential passes")
    func both() async throws {
        try await F.withClient(.router, router: router()) { client in
            expectStatus(.ok, try await status(client, headers: [.authorization: "Bearer \(F.token)"]))
            expectStatus(.ok, try await status(client, headers: signed(Self.body, timestamp: Self.now)))
            // A wrong token does not hide a good signature.
            var headers = signed(Self.body, timestamp: Self.now)
            headers[.authorization] = "Bearer wrong"
            expectStatus(.ok, try await status(client, headers: headers))
            expectStatus(.unauthorized, try await status(client, headers: F.jsonHeaders))
        }
    }

    @Test("no credentials configured: the hook is open")
    func open() async throws {
        try await F.withClient(.router, router: router(tokens: [], secrets: [])) { client in
            expectStatus(.ok, try await status(client, headers: F.jsonHeaders))
        }
    }
}
