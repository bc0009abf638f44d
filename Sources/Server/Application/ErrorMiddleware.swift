import Hummingbird

/// Turns every error into a JSON body: ``APIError``s as they are, Hummingbird's `HTTPError`s (the
/// router's 404 and 405, body limits) in the same vocabulary; anything else becomes a 500 without
/// internals, logged with the request id.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as HTTPError {
            let code =
                switch error.status {
                case .notFound: "not_found"
                case .unauthorized: "unauthorized"
                case .contentTooLarge: "payload_too_large"
                case .methodNotAllowed: "method_not_allowed"
                default: error.status.code < 500 ? "bad_request" : "internal_error"
                }
            return APIError(
                error.status, code: code, reason: error.body ?? error.status.reasonPhrase, headers: error.headers
            ).response
        } catch {
            context.logger.error("unhandled error: \(String(reflecting: error))")
            return APIError(.internalServerError, code: "internal_error", reason: "internal error").response
        }
    }
}
