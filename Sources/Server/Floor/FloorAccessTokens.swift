import Hummingbird

/// The tokens that may read the floor streams (`SWITCHBOARD_CONSOLE_TOKENS`).
///
/// An empty set leaves the streams open, for development on one machine only.
public struct FloorAccessTokens: Sendable {
    private let tokens: [[UInt8]]

    /// Creates the set; empty strings are ignored.
    public init(_ tokens: some Sequence<String>) {
        self.tokens = tokens.filter { !$0.isEmpty }.map { Array($0.utf8) }
    }

    /// Whether no token is configured (anyone may read).
    public var isOpen: Bool { tokens.isEmpty }

    /// Whether `candidate` is one of the tokens, compared in time independent of where it differs.
    public func accepts(_ candidate: some StringProtocol) -> Bool {
        let bytes = Array(candidate.utf8)
        var accepted = false
        for token in tokens where token.count == bytes.count {
            var difference: UInt8 = 0
            for index in token.indices { difference |= token[index] ^ bytes[index] }
            accepted = accepted || difference == 0
        }
        return accepted
    }
}

/// Lets a request through when it carries a configured token: `Authorization: Bearer <token>`,
/// or `?token=<token>` for browsers' `EventSource` and `WebSocket`, which cannot set headers.
/// Anything else is a 401 with a JSON body.
struct FloorTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: FloorAccessTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard !tokens.isOpen else { return try await next(request, context) }
        var candidate: Substring? = request.uri.queryParameters.get("token").map { Substring($0) }
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { candidate = parts[1] }
        }
        guard let candidate, tokens.accepts(candidate) else {
            throw HTTPError(
                .unauthorized,
                headers: [.wwwAuthenticate: #"Bearer realm="switchboard-console""#],
                message: "a console token is required: send Authorization: Bearer <token> or ?token=<token>"
            )
        }
        return try await next(request, context)
    }
}
