import Foundation
import Hummingbird

/// Secrets a caller presents as a bearer token: the console's `SWITCHBOARD_CONSOLE_TOKENS` and
/// the hook's `SWITCHBOARD_HOOK_TOKENS`. The one bearer parser and constant-time comparison of
/// the HTTP edge.
///
/// An empty set is open (anyone may call), for development on one machine only.
public struct AccessTokens: Sendable {
    private let tokens: [[UInt8]]

    /// Creates the set; empty strings are ignored.
    public init(_ tokens: some Sequence<String>) {
        self.tokens = tokens.filter { !$0.isEmpty }.map { Array($0.utf8) }
    }

    /// Whether no token is configured (anyone may call).
    public var isOpen: Bool { tokens.isEmpty }

    /// Whether `candidate` is one of the tokens. It is compared with every token, each in time
    /// independent of where it differs, so the time tells neither which token nearly matched nor
    /// how much of it.
    public func accepts(_ candidate: some StringProtocol) -> Bool {
        let presented = Array(candidate.utf8)
        var accepted = false
        for token in tokens where constantTimeEquals(token, presented) { accepted = true }
        return accepted
    }

    /// The token of an `Authorization` header value `Bearer <token>` (scheme case-insensitive,
    /// surrounding blanks ignored), or `nil` for another scheme.
    public static func bearer(_ authorization: some StringProtocol) -> Substring? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)[...]
    }

    /// The token a request presents: its `Authorization: Bearer` token, else its `?token=` (for
    /// browsers' `EventSource` and `WebSocket`, which cannot set headers); `nil` for none.
    static func presented(in request: Request) -> Substring? {
        if let authorization = request.headers[.authorization], let bearer = bearer(authorization) { return bearer }
        return request.uri.queryParameters.get("token").map { Substring($0) }
    }
}

/// Whether two byte strings are equal, in time that depends only on their lengths.
func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
    return difference == 0
}

/// Lets a request through when it carries a configured token: `Authorization: Bearer <token>`,
/// or `?token=<token>` for browsers' `EventSource` and `WebSocket`, which cannot set headers.
/// Anything else is a 401 with a JSON body.
struct FloorTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: AccessTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard !tokens.isOpen else { return try await next(request, context) }
        guard let candidate = AccessTokens.presented(in: request), tokens.accepts(candidate) else {
            throw APIError.unauthorized(
                "a console token is required: send Authorization: Bearer <token> or ?token=<token>",
                realm: "switchboard-console")
        }
        return try await next(request, context)
    }
}
