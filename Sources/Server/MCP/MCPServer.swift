/// The JSON-RPC 2.0 side of the MCP server: `initialize` (with protocol version negotiation),
/// `ping`, `tools/list`, `tools/call` and notifications, one message in, at most one out.
///
/// Stateless: nothing is remembered between messages, so any replica answers any request and
/// `initialize` only negotiates the version. The HTTP transport is ``MCPRoutes``.
public struct MCPServer: Sendable {
    /// The protocol versions spoken, newest first; `initialize` answers the client's if listed,
    /// else the newest.
    public static let supportedProtocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26"]
    /// The version assumed for a request without `MCP-Protocol-Version` (the 2025-06-18
    /// transport's rule for clients that predate the header).
    public static let defaultProtocolVersion = "2025-03-26"

    /// JSON-RPC error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
    }

    /// `serverInfo.name` and `.version`.
    public let name: String
    public let version: String
    /// `instructions`: how a model should use the tools.
    public let instructions: String
    /// The tools, in `tools/list` order.
    public let tools: [MCPTool]
    private let toolsByName: [String: MCPTool]

    /// - Parameters: see the properties.
    public init(name: String = "switchboard", version: String, instructions: String, tools: [MCPTool]) {
        self.name = name
        self.version = version
        self.instructions = instructions
        self.tools = tools
        self.toolsByName = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Answers one JSON-RPC message.
    ///
    /// - Returns: the response for a request; `nil` for a notification or a response (the
    ///   transport then answers `202 Accepted`).
    public func handle(_ message: JSONValue) async -> JSONValue? {
        guard case .object(let members) = message else {
            return Self.error(id: .null, .invalidRequest, "a JSON-RPC message must be an object")
        }
        let id = members["id"]
        guard members["jsonrpc"] == "2.0" else {
            return Self.error(id: id ?? .null, .invalidRequest, "`jsonrpc` must be \"2.0\"")
        }
        guard let methodValue = members["method"] else {
            // A response to a request of ours: we send none, so there is nothing to match.
            if members["result"] != nil || members["error"] != nil { return nil }
            return Self.error(id: id ?? .null, .invalidRequest, "a request needs a `method`")
        }
        guard case .string(let method) = methodValue else {
            return Self.error(id: id ?? .null, .invalidRequest, "`method` must be a string")
        }
        guard let id else { return nil }  // a notification: notifications/initialized, cancelled...
        switch id {
        case .string, .number: break
        default: return Self.error(id: .null, .invalidRequest, "`id` must be a string or a number")
        }
        let params = members["params"] ?? .object([:])
        guard case .object(let parameters) = params else {
            return Self.error(id: id, .invalidParams, "`params` must be an object")
        }
        switch method {
        case "initialize":
            return Self.success(id: id, initialize(parameters))
        case "ping":
            return Self.success(id: id, .object([:]))
        case "tools/list":
            return Self.success(id: id, ["tools": .array(tools.map(\.listing))])
        case "tools/call":
            return await callTool(id: id, parameters)
        default:
            return Self.error(id: id, .methodNotFound, "method \"\(method)\" is not supported")
        }
    }

    /// The `initialize` result: the client's protocol version when spoken, else the newest.
    func initialize(_ parameters: [String: JSONValue]) -> JSONValue {
        let requested = parameters["protocolVersion"]?.stringValue ?? ""
        let version =
            Self.supportedProtocolVersions.contains(requested) ? requested : Self.supportedProtocolVersions[0]
        return [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": ["name": .string(name), "title": "Switchboard", "version": .string(self.version)],
            "instructions": .string(instructions),
        ]
    }

    private func callTool(id: JSONValue, _ parameters: [String: JSONValue]) async -> JSONValue {
        guard let name = parameters["name"]?.stringValue else {
            return Self.error(id: id, .invalidParams, "`params.name` must name a tool")
        }
        guard let tool = toolsByName[name] else {
            let names = tools.map(\.name).joined(separator: ", ")
            return Self.error(id: id, .invalidParams, "unknown tool \"\(name)\"; the tools are \(names)")
        }
        let arguments: [String: JSONValue]
        switch parameters["arguments"] {
        case nil, .null?: arguments = [:]
        case .object(let members)?: arguments = members
        default: return Self.error(id: id, .invalidParams, "`params.arguments` must be an object")
        }
        do {
            return Self.success(id: id, try await tool.call(MCPToolArguments(arguments)).json)
        } catch {
            return Self.success(id: id, error.result.json)
        }
    }

    static func success(id: JSONValue, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .number(Double(code.rawValue)), "message": .string(message)]]
    }
}
