import Primitives

/// The hook's answer for one call: the hours decision, the route, and their flat rendering.
///
/// Evaluation builds this value without formatting any string; ``attributes`` (or ``json``)
/// renders the flat string map the IVR receives, once, at the edge.
public struct HookAnswer: Sendable {
    /// The `result` key.
    public enum Result: String, Hashable, Sendable {
        /// The store is open.
        case open
        /// The store is closed.
        case closed
        /// The answer could not be computed; see ``HookAnswer/failure``.
        case error
    }

    /// Why an answer is an error.
    public enum Failure: Error, Hashable, Sendable {
        /// No flow has this name: the HTTP server answers 404.
        case unknownFlow(String)
        /// No store has this id or dialed number (`nil` when none was given).
        case unknownStore(String?)

        /// The `error` key: `unknown_flow` or `unknown_store`.
        public var code: String {
            switch self {
            case .unknownFlow: "unknown_flow"
            case .unknownStore: "unknown_store"
            }
        }

        /// A readable message.
        public var message: String {
            switch self {
            case .unknownFlow(let name): "no flow named \"\(name)\" in flows/"
            case .unknownStore(nil): "no storeId parameter, storeId contact attribute or known dialed number"
            case .unknownStore(let reference?): "no store with id or dialed number \"\(reference)\""
            }
        }
    }

    /// Keys every answer has, usable as `{{variable}}` in outputs.
    public static let templateVariables: [String] = [
        "result", "flow", "rule", "storeId", "storeName", "timeZone", "localTime", "dayType",
        "holidayName", "holidayNameEn", "closureName", "closesAt", "closesAtTime", "minutesUntilClose",
        "nextOpenAt", "nextOpenDate", "nextOpenTime", "nextOpenWeekday",
    ]

    /// Keys outputs may not set.
    public static let reservedKeys: [String] = templateVariables + ["error", "errorMessage"]

    /// Open, closed or error.
    public let result: Result
    /// Why the answer is an error.
    public let failure: Failure?
    /// The flow evaluated (as requested when unknown).
    public let flowName: String
    /// The store, when resolved.
    public let store: Store?
    /// The hours decision, when a store was resolved.
    public let decision: HoursDecision?
    /// The matching rule's name (``Flow/defaultRuleName`` for the default), when routed.
    public let ruleName: String?
    /// The route's outputs, unrendered.
    public let outputTemplates: [OutputTemplate]
    /// The contact attributes the answer was computed for (for `{{contact.X}}`).
    public let contactAttributes: [String: String]

    /// Creates an answer.
    public init(
        result: Result, failure: Failure?, flowName: String, store: Store?, decision: HoursDecision?,
        ruleName: String?, outputTemplates: [OutputTemplate], contactAttributes: [String: String]
    ) {
        self.result = result
        self.failure = failure
        self.flowName = flowName
        self.store = store
        self.decision = decision
        self.ruleName = ruleName
        self.outputTemplates = outputTemplates
        self.contactAttributes = contactAttributes
    }

    /// The value of one of ``templateVariables`` (or `error`, `errorMessage`), or `nil` for an
    /// unknown key. Not-applicable values are empty strings.
    public func value(forKey key: String) -> String? {
        switch key {
        case "result": return result.rawValue
        case "flow": return flowName
        case "rule": return ruleName ?? ""
        case "storeId": return store?.id ?? requestedStore ?? ""
        case "storeName": return store?.name ?? ""
        case "timeZone": return store?.timeZoneIdentifier ?? ""
        case "localTime": return decision?.at.iso8601 ?? ""
        case "dayType": return decision?.dayType.rawValue ?? ""
        case "holidayName": return decision?.day.holiday?.nameJa ?? ""
        case "holidayNameEn": return decision?.day.holiday?.nameEn ?? ""
        case "closureName": return decision?.closureName ?? ""
        case "closesAt": return decision?.closesAt?.iso8601 ?? ""
        case "closesAtTime": return decision?.closesAt?.localClock ?? ""
        case "minutesUntilClose": return decision?.minutesUntilClose.map(String.init) ?? ""
        case "nextOpenAt": return decision?.nextOpenAt?.iso8601 ?? ""
        case "nextOpenDate": return decision?.nextOpenAt?.localDate.description ?? ""
        case "nextOpenTime": return decision?.nextOpenAt?.localClock ?? ""
        case "nextOpenWeekday": return decision?.nextOpenAt?.localDate.weekday.description ?? ""
        case "error": return failure?.code ?? ""
        case "errorMessage": return failure?.message ?? ""
        default: return nil
        }
    }

    private var requestedStore: String? {
        if case .unknownStore(let reference) = failure { return reference }
        return nil
    }

    /// The route's outputs, rendered.
    public var outputs: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(outputTemplates.count)
        for template in outputTemplates { result[template.key] = template.render(self) }
        return result
    }

    /// Calls `body` with every key and value of the flat answer, in a fixed order: the keys of
    /// ``templateVariables``, then `error` and `errorMessage` for an error, then the outputs in
    /// declaration order. This is the cheapest way to serialize an answer.
    public func forEachAttribute(_ body: (String, String) -> Void) {
        let decision = self.decision
        let holiday = decision?.day.holiday
        let closesAt = decision?.closesAt
        let nextOpenAt = decision?.nextOpenAt
        let nextOpenDate = nextOpenAt?.localDate
        body("result", result.rawValue)
        body("flow", flowName)
        body("rule", ruleName ?? "")
        body("storeId", store?.id ?? requestedStore ?? "")
        body("storeName", store?.name ?? "")
        body("timeZone", store?.timeZoneIdentifier ?? "")
        body("localTime", decision?.at.iso8601 ?? "")
        body("dayType", decision?.dayType.rawValue ?? "")
        body("holidayName", holiday?.nameJa ?? "")
        body("holidayNameEn", holiday?.nameEn ?? "")
        body("closureName", decision?.closureName ?? "")
        body("closesAt", closesAt?.iso8601 ?? "")
        body("closesAtTime", closesAt?.localClock ?? "")
        body("minutesUntilClose", decision?.minutesUntilClose.map(String.init) ?? "")
        body("nextOpenAt", nextOpenAt?.iso8601 ?? "")
        body("nextOpenDate", nextOpenDate?.description ?? "")
        body("nextOpenTime", nextOpenAt?.localClock ?? "")
        body("nextOpenWeekday", nextOpenDate?.weekday.description ?? "")
        if let failure {
            body("error", failure.code)
            body("errorMessage", failure.message)
        }
        for template in outputTemplates { body(template.key, template.render(self)) }
    }

    /// The flat string map for the IVR: every key of ``templateVariables`` (empty strings when
    /// not applicable), `error` and `errorMessage` when the answer is an error, and the outputs.
    public var attributes: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(HookAnswer.templateVariables.count + 2 + outputTemplates.count)
        forEachAttribute { key, value in result[key] = value }
        return result
    }

    /// ``attributes`` as a compact JSON object, keys in the order of ``forEachAttribute(_:)``.
    public var json: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }

    /// ``json`` as UTF-8 bytes, ready for a response body.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        forEachAttribute { key, value in writer.member(key, value) }
        writer.endObject()
        return writer.bytes
    }
}
