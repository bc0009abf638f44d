import Hummingbird

/// The responses of the hook routes other than answers: JSON `{"error": code, "reason": text}`.
enum HookResponses {
    /// 400: the request cannot be understood; `reason` says what to fix.
    static func badRequest(_ reason: String) -> Response {
        JSONResponse.error(.badRequest, code: "bad_request", reason: reason)
    }

    /// 401 with a `WWW-Authenticate` challenge.
    static func unauthorized(_ failure: HookAuthenticator.Failure) -> Response {
        var response = JSONResponse.error(.unauthorized, code: "unauthorized", reason: failure.reason)
        response.headers[.wwwAuthenticate] = "Bearer realm=\"switchboard\""
        return response
    }

    /// 413: the body is larger than the limit.
    static func payloadTooLarge(limit: Int) -> Response {
        JSONResponse.error(
            .contentTooLarge, code: "payload_too_large", reason: "the body exceeds \(limit) bytes")
    }

    /// 404 with a specific code (`unknown_flow`, `unknown_store`, `unknown_calendar`).
    static func notFound(code: String, reason: String) -> Response {
        JSONResponse.error(.notFound, code: code, reason: reason)
    }

    /// 503: no valid `flows/` has been loaded yet.
    static func flowsUnavailable(_ detail: String) -> Response {
        JSONResponse.error(.serviceUnavailable, code: "flows_unavailable", reason: detail)
    }

    /// 200 with an answer's JSON bytes.
    static func answer(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
