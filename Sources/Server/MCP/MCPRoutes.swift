import Foundation
import Hummingbird
import Logging
import Primitives

/// The MCP server's Streamable HTTP transport, stateless, with JSON responses:
///
/// - `POST /mcp`: one JSON-RPC message (or a batch, for 2025-03-26 clients); a request is
///   answered `200` with `application/json`, notifications and responses `202` with no body;
/// - `GET /mcp` and `DELETE /mcp`: `405` (no server-initiated stream, no sessions);
/// - `GET /.well-known/oauth-protected-resource[/mcp]`: the Protected Resource Metadata
///   (RFC 9728) that MCP authorization points clients to.
///
/// A refused credential is a `401` whose `WWW-Authenticate` names that metadata; a browser
/// `Origin` that is not allowed is a `403`; an unsupported `MCP-Protocol-Version` is a `400`.
public struct MCPRoutes: RouteProvider {
    /// The most messages a JSON-RPC batch may hold (a JSON-RPC error beyond).
    static let maximumBatchItems = 16

    /// The JSON-RPC server.
    public let server: MCPServer
    let authenticator: MCPAuthenticator
    let logger: Logger
    /// Each credential's share of the server: four posts at a time, 32 more waiting (a gateway
    /// such as AgentCore calls for many conversations with one credential), each on the
    /// executor given.
    let budget: CallerBudget

    /// The endpoint's path.
    public static let path = "/mcp"
    /// The metadata's path.
    public static let metadataPath = "/.well-known/oauth-protected-resource"
    static let protocolVersionField = HTTPFields.Element.Name("MCP-Protocol-Version")!

    /// - Parameters:
    ///   - server: Answers the messages.
    ///   - configuration: Credentials and limits.
    ///   - fetchKeys: Fetches the OAuth issuer's JWKS (tests); by default from its URL.
    ///   - executor: Where each post's work runs, its JSON and its tools' answers
    ///     (``ComputeExecutor``, as the staffing routes'): off the cooperative pool the hook
    ///     answers from; `nil`: on it.
    public init(
        server: MCPServer, configuration: MCPConfiguration, logger: Logger,
        fetchKeys: (@Sendable () async throws -> Data)? = nil, executor: (any TaskExecutor)? = nil
    ) {
        self.budget = CallerBudget(concurrent: 4, waiting: 32, executor: executor)
        self.server = server
        self.authenticator = MCPAuthenticator(configuration: configuration, logger: logger, fetchKeys: fetchKeys)
        self.logger = logger
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        router.post(RouterPath(Self.path)) { [budget] request, context -> Response in
            try await budget.run(for: CallerBudgetMiddleware.caller(request, context: context)) {
                try await post(request, context: context)
            }
        }
        for method in [HTTPRequest.Method.get, .delete] {
            router.on(RouterPath(Self.path), method: method) { _, _ -> Response in
                throw APIError(
                    .methodNotAllowed, code: "method_not_allowed",
                    reason: "this MCP server is stateless: send JSON-RPC messages with POST",
                    headers: [.allow: "POST"])
            }
        }
        for path in [Self.metadataPath, Self.metadataPath + Self.path] {
            router.get(RouterPath(path)) { request, _ -> Response in
                metadata(request)
            }
        }
    }

    func post(_ request: Request, context: SwitchboardRequestContext) async throws -> Response {
        do {
            try await authenticator.authenticate(request.headers)
        } catch {
            throw refusal(error, request: request)
        }
        if let version = request.headers[Self.protocolVersionField],
            !MCPServer.supportedProtocolVersions.contains(version)
        {
            let supported = MCPServer.supportedProtocolVersions.joined(separator: ", ")
            throw APIError.badRequest("MCP-Protocol-Version \(version) is not supported; use one of \(supported)")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: authenticator.configuration.maximumBodyBytes)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: authenticator.configuration.maximumBodyBytes)
        } catch {
            throw APIError.badRequest("the body could not be read")
        }
        let message: JSONValue
        do {
            message = try JSONCoding.decoder.decode(JSONValue.self, from: Data(body.readableBytesView))
        } catch {
            return Self.json(MCPServer.error(id: .null, .parseError, "the body is not JSON"), status: .badRequest)
        }
        switch message {
        case .array(let batch):
            guard !batch.isEmpty else {
                return Self.json(MCPServer.error(id: .null, .invalidRequest, "an empty batch"), status: .badRequest)
            }
            // One request runs at most this many tool calls: a batch cannot multiply a caller's load.
            guard batch.count <= Self.maximumBatchItems else {
                return Self.json(
                    MCPServer.error(
                        id: .null, .invalidRequest,
                        "a batch holds at most \(Self.maximumBatchItems) messages (this one \(batch.count))"),
                    status: .badRequest)
            }
            var answers: [JSONValue] = []
            for item in batch {
                if let answer = await server.handle(item) { answers.append(answer) }
            }
            return answers.isEmpty ? Response(status: .accepted) : Self.json(.array(answers))
        default:
            guard let answer = await server.handle(message) else { return Response(status: .accepted) }
            return Self.json(answer)
        }
    }

    /// The error for a refused request: 401 with the metadata's URL, 403, or 503 when `serve`
    /// has no credential configured.
    func refusal(_ refusal: MCPAuthenticator.Refusal, request: Request) -> APIError {
        let challenge = "Bearer resource_metadata=\"\(baseURL(request))\(Self.metadataPath)\(Self.path)\""
        switch refusal {
        case .notConfigured:
            return APIError(
                .serviceUnavailable, code: "mcp_not_configured",
                reason: "the MCP endpoint needs SWITCHBOARD_MCP_TOKENS or SWITCHBOARD_MCP_OAUTH_ISSUER on this role")
        case .missingToken:
            return APIError(
                .unauthorized, code: "unauthorized",
                reason: "authentication required: send Authorization: Bearer <token or OAuth access token>",
                headers: [.wwwAuthenticate: challenge])
        case .invalidToken(let reason):
            return APIError(
                .unauthorized, code: "invalid_token", reason: reason,
                headers: [.wwwAuthenticate: challenge + ", error=\"invalid_token\""])
        case .forbiddenOrigin(let origin):
            return APIError(
                .forbidden, code: "forbidden_origin",
                reason: "Origin \(origin) is not allowed; add it to SWITCHBOARD_MCP_ALLOWED_ORIGINS")
        }
    }

    /// Protected Resource Metadata (RFC 9728) for the endpoint.
    func metadata(_ request: Request) -> Response {
        let configuration = authenticator.configuration
        var document: [String: JSONValue] = [
            "resource": .string(configuration.resource ?? baseURL(request) + Self.path),
            "resource_name": "Switchboard",
            "bearer_methods_supported": ["header"],
        ]
        if let oauth = configuration.oauth {
            document["authorization_servers"] = [.string(oauth.issuer)]
        }
        return Self.json(.object(document))
    }

    /// `scheme://host` of the endpoint: from the configured resource, else the request's `Host`
    /// (and `X-Forwarded-Proto` behind a proxy).
    func baseURL(_ request: Request) -> String {
        if let resource = authenticator.configuration.resource, let url = URLComponents(string: resource),
            let scheme = url.scheme, let host = url.host
        {
            return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
        }
        let scheme = request.headers[HTTPFields.Element.Name("X-Forwarded-Proto")!] ?? "http"
        let host = request.head.authority ?? "localhost"
        return "\(scheme)://\(host)"
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONValue.encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
