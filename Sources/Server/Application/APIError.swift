import Hummingbird

/// The one error vocabulary of the HTTP edge: handlers and middleware throw it, and
/// ``ErrorMiddleware`` renders it as `{"error": code, "reason": reason}` with its status and
/// headers. `code` is stable for programs; `reason` says what to fix, for people.
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `bad_request` or `unknown_store`.
    public var code: String
    /// What was wrong and how to fix it.
    public var reason: String
    /// Extra response headers (e.g. a `WWW-Authenticate` challenge).
    public var headers: HTTPFields

    /// - Parameters: see the properties.
    public init(_ status: HTTPResponse.Status, code: String, reason: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.reason = reason
        self.headers = headers
    }

    public var description: String { "\(status.code) \(code): \(reason)" }

    /// 400: the request cannot be understood.
    public static func badRequest(_ reason: String) -> APIError {
        APIError(.badRequest, code: "bad_request", reason: reason)
    }

    /// 401 with a bearer challenge for `realm`.
    public static func unauthorized(_ reason: String, realm: String) -> APIError {
        APIError(
            .unauthorized, code: "unauthorized", reason: reason,
            headers: [.wwwAuthenticate: "Bearer realm=\"\(realm)\""])
    }

    /// 404 with a specific code (`unknown_flow`, `unknown_store`, `unknown_calendar`, `not_found`).
    public static func notFound(code: String = "not_found", _ reason: String) -> APIError {
        APIError(.notFound, code: code, reason: reason)
    }

    /// 413: the body is larger than `limit` bytes.
    public static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "payload_too_large", reason: "the body exceeds \(limit) bytes")
    }

    /// 503: a dependency of the route is not available yet.
    public static func unavailable(code: String, _ reason: String) -> APIError {
        APIError(.serviceUnavailable, code: code, reason: reason)
    }

    /// The JSON response for this error.
    public var response: Response {
        var response = JSONResponse.make(["error": code, "reason": reason], status: status)
        for field in headers { response.headers.append(field) }
        return response
    }
}
