import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import Server

/// The Streamable HTTP transport through the router: status codes, headers and JSON-RPC shapes.
@Suite("MCP over HTTP")
struct MCPRoutesTests {
    static let token = "mcp-token-for-tests-0123456789"

    static func router(_ configuration: MCPConfiguration) -> Router<SwitchboardRequestContext> {
        let server = SwitchboardTools.server(
            flows: HookFixtures.shippedStore, floor: nil, version: "test", now: { HookFixtures.fixedNow })
        return buildRouter(
            dependencies: ServerDependencies(
                routeProviders: [MCPRoutes(server: server, configuration: configuration, logger: Logger(label: "t"))]))
    }

    static func body(_ value: JSONValue) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONValue.encoder.encode(value))
    }

    static func json(_ response: TestResponse) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
    }

    static let initialize: JSONValue = [
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
    ]

    @Test("a token is required; the 401 names the resource metadata")
    func unauthorized() async throws {
        let app = Application(router: Self.router(MCPConfiguration(bearerTokens: [Self.token])))
        try await app.test(.router) { client in
            try await client.execute(uri: "/mcp", method: .post, body: Self.body(Self.initialize)) { response in
                #expect(response.status == .unauthorized)
                let challenge = response.headers[.wwwAuthenticate] ?? ""
                #expect(challenge.contains("resource_metadata=\""))
                #expect(challenge.contains("/.well-known/oauth-protected-resource/mcp"))
            }
            let headers: HTTPFields = [.authorization: "Bearer \(Self.token)", .contentType: "application/json"]
            try await client.execute(uri: "/mcp", method: .post, headers: headers, body: Self.body(Self.initialize)) {
                response in
                #expect(response.status == .ok)
                #expect((try? Self.json(response))?["result"]?["protocolVersion"] == "2025-06-18")
            }
            try await client.execute(uri: "/mcp", method: .get, headers: headers) { response in
                #expect(response.status == .methodNotAllowed)
            }
            let notification: JSONValue = ["jsonrpc": "2.0", "method": "notifications/initialized"]
            try await client.execute(uri: "/mcp", method: .post, headers: headers, body: Self.body(notification)) {
                response in
                #expect(response.status == .accepted)
            }
        }
    }

    @Test("a batch holds at most 16 messages: a longer one is a JSON-RPC error, none of it run")
    func batchCap() async throws {
        let app = Application(router: Self.router(MCPConfiguration(bearerTokens: [Self.token])))
        let headers: HTTPFields = [.authorization: "Bearer \(Self.token)", .contentType: "application/json"]
        @Sendable func ping(_ id: Int) -> JSONValue { ["jsonrpc": "2.0", "id": .number(Double(id)), "method": "ping"] }
        try await app.test(.router) { client in
            let sixteen = JSONValue.array((1...16).map(ping))
            try await client.execute(uri: "/mcp", method: .post, headers: headers, body: Self.body(sixteen)) {
                response in
                #expect(response.status == .ok)
                guard case .array(let answers)? = try? Self.json(response) else {
                    Issue.record("a batch's answer is an array")
                    return
                }
                #expect(answers.count == 16)
            }
            let seventeen = JSONValue.array((1...17).map(ping))
            try await client.execute(uri: "/mcp", method: .post, headers: headers, body: Self.body(seventeen)) {
                response in
                #expect(response.status == .badRequest)
                let answer = try? Self.json(response)
                #expect(answer?["error"]?["code"] == -32600)
                #expect(answer?["error"]?["message"]?.stringValue?.contains("16") == true)
            }
        }
    }

    @Test("without credentials: dev is open, serve refuses")
    func unconfigured() async throws {
        let open = Application(router: Self.router(MCPConfiguration(allowsUnauthenticated: true)))
        try await open.test(.router) { client in
            try await client.execute(uri: "/mcp", method: .post, body: Self.body(Self.initialize)) { response in
                #expect(response.status == .ok)
            }
            var foreign: HTTPFields = [:]
            foreign[.origin] = "https://evil.example"
            try await client.execute(uri: "/mcp", method: .post, headers: foreign, body: Self.body(Self.initialize)) {
                response in
                #expect(response.status == .forbidden)
            }
        }
        let closed = Application(router: Self.router(MCPConfiguration()))
        try await closed.test(.router) { client in
            try await client.execute(uri: "/mcp", method: .post, body: Self.body(Self.initialize)) { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
    }

    @Test("a body over the limit is 413; an unsupported MCP-Protocol-Version is 400; bad JSON is a parse error")
    func limits() async throws {
        let app = Application(
            router: Self.router(MCPConfiguration(allowsUnauthenticated: true, maximumBodyBytes: 256)))
        try await app.test(.router) { client in
            let large = ByteBuffer(
                string: "{\"jsonrpc\":\"2.0\",\"pad\":\"" + String(repeating: "x", count: 1_000) + "\"}")
            try await client.execute(uri: "/mcp", method: .post, body: large) { response in
                #expect(response.status == .contentTooLarge)
            }
            var old: HTTPFields = [:]
            old[MCPRoutes.protocolVersionField] = "2024-01-01"
            try await client.execute(uri: "/mcp", method: .post, headers: old, body: Self.body(Self.initialize)) {
                response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/mcp", method: .post, body: ByteBuffer(string: "{nope")) { response in
                #expect(response.status == .badRequest)
                #expect((try? Self.json(response))?["error"]?["code"] == -32700)
            }
        }
    }
}
