import Hummingbird

/// The hook's successful responses; its errors are ``APIError``s.
enum HookResponses {
    /// 200 with an answer's JSON bytes.
    static func answer(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// 401 for a hook request without valid credentials.
    static func unauthorized(_ failure: HookAuthenticator.Failure) -> APIError {
        .unauthorized(failure.reason, realm: "switchboard")
    }

    /// 503: no valid `flows/` has been loaded yet.
    static let flowsUnavailable = APIError.unavailable(code: "flows_unavailable", "no valid flows loaded; see /ready")
}
