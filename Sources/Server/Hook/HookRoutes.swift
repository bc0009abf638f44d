import ContactCenter
import Foundation
import Hummingbird
import Logging
import OperatingHours

/// The IVR hook and the read-only views around it:
///
/// - `POST /v1/hooks/{flow}`: evaluates a flow for a call (Amazon Connect's Lambda event or a
///   plain JSON body) and answers a flat object of strings;
/// - `GET /v1/stores/{id}/hours?from=DATE&to=DATE`: the effective spans of each day;
/// - `GET /v1/calendar/{year}`: the holidays of a year.
///
/// The hook and the hours need the deployment's credentials (``HookConfiguration``); the
/// calendar is public. No client input leads to a 5xx: every failure is a 4xx with a JSON reason,
/// and an unknown store is a 200 answer with `result=error` so the IVR can branch on it.
public struct HookRoutes: RouteProvider {
    /// Where the flows come from.
    public let store: any FlowProvider
    /// Credentials and limits.
    public let configuration: HookConfiguration
    let authenticator: HookAuthenticator
    let metrics = HookMetrics()
    let now: @Sendable () -> Date

    /// Creates the routes.
    ///
    /// - Parameters:
    ///   - store: The flows evaluated.
    ///   - configuration: Credentials and limits.
    ///
    /// Requests log through their request's logger (with its request id).
    public init(store: any FlowProvider, configuration: HookConfiguration = .init()) {
        self.init(store: store, configuration: configuration, now: { Date() })
    }

    /// Creates the routes with a clock (tests).
    init(store: any FlowProvider, configuration: HookConfiguration, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.configuration = configuration
        self.authenticator = HookAuthenticator(configuration: configuration) {
            Int64(now().timeIntervalSince1970.rounded(.down))
        }
        self.now = now
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        router.post("/v1/hooks/:flow") { request, context -> Response in
            try await hook(request, flowName: Self.decoded(context.parameters.get("flow")), logger: context.logger)
        }
        router.group("/v1/stores")
            .add(middleware: HookAuthenticationMiddleware(authenticator: authenticator))
            .get(":id/hours") { request, context -> Response in
                try hours(request, storeId: Self.decoded(context.parameters.get("id")))
            }
        router.get("/v1/calendar/:year") { request, context -> Response in
            try calendar(request, year: context.parameters.get("year") ?? "")
        }
    }

    /// A path segment as the name it stands for: the router hands segments over as sent, so a
    /// flow or store id spelled with percent-encoding (`%E4%BA%88%E7%B4%84`, `ginza%2Dsushi`) is
    /// decoded here; a segment that does not decode is kept as sent.
    static func decoded(_ segment: String?) -> String {
        guard let segment else { return "" }
        return segment.removingPercentEncoding ?? segment
    }

    // MARK: The hook

    /// Answers one hook call and records its metrics.
    ///
    /// - Throws: ``APIError`` for a request that cannot be answered (recorded as `result=error`).
    func hook(_ request: Request, flowName: String, logger: Logger) async throws(APIError) -> Response {
        let start = ContinuousClock.now
        do {
            let (response, result) = try await answer(request, flowName: flowName, logger: logger)
            metrics.record(result: result, status: Int(response.status.code), elapsed: start.duration(to: .now))
            return response
        } catch {
            metrics.record(result: "error", status: Int(error.status.code), elapsed: start.duration(to: .now))
            throw error
        }
    }

    private func answer(_ request: Request, flowName: String, logger: Logger) async throws(APIError) -> (
        Response, String
    ) {
        var request = request
        var logger = logger
        let body: ByteBuffer
        do {
            if let failure = try await authenticator.authenticate(&request) {
                logger.debug("hook refused: \(failure.reason)")
                throw HookResponses.unauthorized(failure)
            }
            body = try await request.collectBody(upTo: configuration.maximumBodyBytes)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw .payloadTooLarge(limit: configuration.maximumBodyBytes)
        } catch {
            logger.debug("hook body unreadable: \(error)")
            throw .badRequest("the body could not be read")
        }
        let decoded = body.withUnsafeReadableBytes { bytes in
            Result { () throws(HookCallError) in try HookCall.decode(bytes) }
        }
        let call: HookCall
        switch decoded {
        case .success(let success): call = success
        case .failure(let error):
            logger.debug("hook body refused: \(error.reason)")
            throw .badRequest(error.reason)
        }
        // Only an id that is safe on a log line (a Connect contact id is a UUID).
        if let contactId = call.contactId, RequestIDMiddleware<SwitchboardRequestContext>.isAcceptable(contactId) {
            logger[metadataKey: "contact_id"] = .string(contactId)
        }
        let instant: Date
        if let at = call.at {
            do {
                instant = try ZonedInstant(iso8601: at).date
            } catch {
                throw .badRequest("`at`: \(error)")
            }
        } else {
            instant = now()
        }
        guard let loaded = store.current else {
            throw HookResponses.flowsUnavailable
        }
        guard loaded.flows.flow(named: flowName) != nil else {
            throw .notFound(code: "unknown_flow", HookAnswer.Failure.unknownFlow(flowName).message)
        }
        let answer = loaded.flows.evaluate(
            flowName: flowName, storeId: call.storeId, dialedNumber: call.dialedNumber,
            contactAttributes: call.contactAttributes, parameters: call.parameters, at: instant)
        let bytes = answer.jsonBytes
        guard bytes.count <= configuration.maximumAnswerBytes else {
            return (HookResponses.answer(oversizedAnswer(answer, size: bytes.count, logger: logger)), "error")
        }
        return (HookResponses.answer(bytes), answer.result.rawValue)
    }

    /// The answer sent instead of one over the size limit: `result=error`, `error=answer_too_large`.
    private func oversizedAnswer(_ answer: HookAnswer, size: Int, logger: Logger) -> [UInt8] {
        logger.warning(
            "answer of \(size) bytes exceeds \(configuration.maximumAnswerBytes); flow \(answer.flowName), rule \(answer.ruleName ?? "-")"
        )
        let fields: [String: String] = [
            "result": "error",
            "error": "answer_too_large",
            "errorMessage":
                "the answer of rule \"\(answer.ruleName ?? "-")\" renders \(size) bytes, over the limit of "
                + "\(configuration.maximumAnswerBytes); shorten its outputs",
            "flow": answer.flowName,
            "rule": answer.ruleName ?? "",
            "storeId": answer.value(forKey: "storeId") ?? "",
        ]
        return Array((try? JSONResponse.encoder.encode(fields)) ?? Data("{}".utf8))
    }
}
