import Hummingbird

/// Turns every error into a JSON body: `HTTPError`s keep their status and message; anything else
/// becomes a 500 without internals, logged with the request id.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let code =
                switch error.status {
                case .notFound: "not_found"
                case .unauthorized: "unauthorized"
                case .contentTooLarge: "payload_too_large"
                case .methodNotAllowed: "method_not_allowed"
                default: error.status.code < 500 ? "bad_request" : "internal_error"
                }
            var response = JSONResponse.error(error.status, code: code, reason: error.body ?? error.status.reasonPhrase)
            for field in error.headers { response.headers.append(field) }
            return response
        } catch {
            context.logger.error("unhandled error: \(String(reflecting: error))")
            return JSONResponse.error(.internalServerError, code: "internal_error", reason: "internal error")
        }
    }
}
