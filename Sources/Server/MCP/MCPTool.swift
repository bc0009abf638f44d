/// One tool an MCP client can call: its name, what it does, the JSON Schema of its arguments,
/// and the code that answers it.
public struct MCPTool: Sendable {
    /// The name clients call (`store_status`).
    public var name: String
    /// A short human-readable title.
    public var title: String
    /// What the tool answers and when to use it, for the model choosing tools.
    public var description: String
    /// The JSON Schema of `arguments` (an object schema).
    public var inputSchema: JSONValue
    /// Answers a call; a failure the model can act on is a result with ``MCPToolResult/isError``.
    public var call: @Sendable (MCPToolArguments) async throws(MCPToolError) -> MCPToolResult

    /// - Parameters: see the properties.
    public init(
        name: String, title: String, description: String, inputSchema: JSONValue,
        call: @escaping @Sendable (MCPToolArguments) async throws(MCPToolError) -> MCPToolResult
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.inputSchema = inputSchema
        self.call = call
    }

    /// The tool as `tools/list` describes it.
    var listing: JSONValue {
        [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema,
        ]
    }
}

/// The answer of a tool: a short text for the model and the same facts as structured content.
public struct MCPToolResult: Sendable {
    /// The text content (one text block).
    public var text: String
    /// `structuredContent`: a JSON object.
    public var structuredContent: JSONValue?
    /// Whether the call failed in a way the model can act on (a wrong id, a range too long).
    public var isError: Bool

    /// - Parameters: see the properties.
    public init(text: String, structuredContent: JSONValue? = nil, isError: Bool = false) {
        self.text = text
        self.structuredContent = structuredContent
        self.isError = isError
    }

    /// The `tools/call` result object.
    var json: JSONValue {
        var result: [String: JSONValue] = [
            "content": [["type": "text", "text": .string(text)]],
            "isError": .bool(isError),
        ]
        if let structuredContent { result["structuredContent"] = structuredContent }
        return .object(result)
    }
}

/// A tool call that cannot be answered as asked: returned to the client as a result with
/// `isError: true` and this reason, which says what to change.
public struct MCPToolError: Error, Sendable, Hashable {
    /// A stable code (`unknown_store`, `range_too_long`, `bad_instant`...).
    public var code: String
    /// What was wrong and how to fix it.
    public var reason: String

    /// - Parameters: see the properties.
    public init(code: String, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// A missing or mistyped argument.
    public static func invalidArgument(_ reason: String) -> MCPToolError {
        MCPToolError(code: "invalid_argument", reason)
    }

    /// The result sent for this error.
    var result: MCPToolResult {
        MCPToolResult(
            text: reason, structuredContent: ["error": .string(code), "reason": .string(reason)], isError: true)
    }
}

/// The arguments of a tool call, with typed accessors that fail with an actionable reason.
public struct MCPToolArguments: Sendable {
    /// The arguments as sent.
    public let values: [String: JSONValue]

    /// - Parameter values: The `arguments` object of `tools/call`.
    public init(_ values: [String: JSONValue]) {
        self.values = values
    }

    /// A string argument, `nil` when absent or null.
    ///
    /// - Throws: ``MCPToolError`` when present with another type.
    public func optionalString(_ key: String) throws(MCPToolError) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw .invalidArgument("`\(key)` must be a string, got \(other.kindName)")
        }
    }

    /// A whole-number argument within `range`, `default` when absent or null.
    ///
    /// - Throws: ``MCPToolError`` when present as anything but a whole number within `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>, default value: Int) throws(MCPToolError) -> Int {
        switch values[key] {
        case nil, .null?: return value
        case .number(let number)? where number.rounded() == number && number.magnitude < 1e9:
            guard range.contains(Int(number)) else {
                throw .invalidArgument(
                    "`\(key)` must be from \(range.lowerBound) to \(range.upperBound), got \(Int(number))")
            }
            return Int(number)
        case .number(let number)?:
            throw .invalidArgument("`\(key)` must be a whole number, got \(number)")
        case let other?:
            throw .invalidArgument("`\(key)` must be a whole number, got \(other.kindName)")
        }
    }

    /// A required, non-empty string argument.
    ///
    /// - Throws: ``MCPToolError`` when missing, empty or of another type.
    public func string(_ key: String) throws(MCPToolError) -> String {
        guard let value = try optionalString(key), !value.isEmpty else {
            throw .invalidArgument("`\(key)` is required")
        }
        return value
    }
}

extension JSONValue {
    /// The JSON type name, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
