import Foundation

/// Everything declared in `flows/`, compiled and validated: stores, hours, calendars and IVR
/// flows. Immutable and `Sendable`; the hook evaluates against one instance and swaps in a new
/// one on reload.
public struct FlowSet: Sendable {
    /// The time zone of a store that names none.
    public static let defaultTimeZone = "Asia/Tokyo"
    /// The built-in calendar's id (the Japanese national holidays); a `calendars:` entry with this
    /// id adjusts it.
    public static let japaneseCalendarId = "japan"

    /// The stores, sorted by id.
    public let stores: [Store]
    /// The flows, sorted by name.
    public let flows: [Flow]
    /// The hours profiles by id.
    public let profiles: [String: HoursProfile]
    /// The holiday calendars by id (always includes `japan`).
    public let calendars: [String: any HolidayCalendar]
    private let storesById: [String: Store]
    private let storesByNumber: [String: Store]
    private let flowsByName: [String: Flow]

    init(stores: [Store], flows: [Flow], profiles: [String: HoursProfile], calendars: [String: any HolidayCalendar]) {
        self.stores = stores.sorted { $0.id < $1.id }
        self.flows = flows.sorted { $0.name < $1.name }
        self.profiles = profiles
        self.calendars = calendars
        self.storesById = Dictionary(stores.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.storesByNumber = Dictionary(
            stores.flatMap { store in store.dialedNumbers.map { ($0, store) } }, uniquingKeysWith: { first, _ in first }
        )
        self.flowsByName = Dictionary(flows.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Loading

    /// Loads `flows/` from the text of its files; no file I/O happens here.
    ///
    /// Files may hold any of the top-level keys `version`, `calendars`, `profiles`, `stores` and
    /// `flows`; references resolve across files.
    /// - Parameter files: `(fileName, text)` pairs; the names appear in error messages.
    /// - Throws: ``FlowError`` listing every problem found, each with file, line and fix.
    public static func load(files: [(name: String, text: String)]) throws(FlowError) -> FlowSet {
        var loader = FlowSetLoader()
        for file in files { loader.parse(file: file.name, text: file.text) }
        return try loader.build()
    }

    // MARK: Lookup

    /// The flow with a name, or `nil`.
    public func flow(named name: String) -> Flow? { flowsByName[name] }

    /// The store with an id, or `nil`.
    public func store(id: String) -> Store? { storesById[id] }

    /// The store a number belongs to (spaces and hyphens ignored), or `nil`.
    public func store(dialedNumber: String) -> Store? {
        storesByNumber[dialedNumber] ?? storesByNumber[Store.normalizeDialedNumber(dialedNumber)]
    }

    /// Resolves the store of a call: `parameters["storeId"]`, else the contact attribute
    /// `storeId`, else the dialed number. The first one given decides, even when unknown.
    ///
    /// - Returns: the store, or the reference that matched nothing (`nil` when none was given).
    public func resolveStore(
        storeId: String? = nil, dialedNumber: String?, contactAttributes: [String: String],
        parameters: [String: String]
    ) -> Result<Store, HookAnswer.Failure> {
        if let id = FlowSet.nonEmpty(storeId) ?? FlowSet.nonEmpty(parameters["storeId"])
            ?? FlowSet.nonEmpty(contactAttributes["storeId"])
        {
            return storesById[id].map { .success($0) } ?? .failure(.unknownStore(id))
        }
        if let number = FlowSet.nonEmpty(dialedNumber) {
            return store(dialedNumber: number).map { .success($0) } ?? .failure(.unknownStore(number))
        }
        return .failure(.unknownStore(nil))
    }

    // MARK: Evaluation

    /// Evaluates a flow for a call: resolves the store, decides its hours at `at` and routes.
    ///
    /// - Parameters:
    ///   - flowName: The flow; an unknown name gives `result=error`, `error=unknown_flow` and
    ///     ``HookAnswer/failure`` `.unknownFlow` (the HTTP server answers 404).
    ///   - storeId: An explicit store id; when `nil`, `parameters["storeId"]`, then the contact
    ///     attribute `storeId`, then `dialedNumber` are used.
    ///   - dialedNumber: The number the caller dialed (the system endpoint), E.164.
    ///   - contactAttributes: The contact's attributes, tested by `contactAttributes:` conditions.
    ///   - parameters: The hook's parameters.
    ///   - at: The instant to evaluate.
    public func evaluate(
        flowName: String, storeId: String? = nil, dialedNumber: String?, contactAttributes: [String: String],
        parameters: [String: String], at: Date
    ) -> HookAnswer {
        guard let flow = flowsByName[flowName] else {
            return HookAnswer(
                result: .error, failure: .unknownFlow(flowName), flowName: flowName, store: nil, decision: nil,
                ruleName: nil, outputTemplates: [], contactAttributes: contactAttributes)
        }
        switch resolveStore(
            storeId: storeId, dialedNumber: dialedNumber, contactAttributes: contactAttributes, parameters: parameters)
        {
        case .success(let store):
            return evaluate(flow: flow, store: store, contactAttributes: contactAttributes, at: at)
        case .failure(let failure):
            return HookAnswer(
                result: .error, failure: failure, flowName: flowName, store: nil, decision: nil, ruleName: nil,
                outputTemplates: [], contactAttributes: contactAttributes)
        }
    }

    /// Evaluates a flow for a known store.
    public func evaluate(flow: Flow, store: Store, contactAttributes: [String: String], at: Date) -> HookAnswer {
        let decision = store.schedule.decision(at: at)
        let rule = flow.matchingRule(decision: decision, store: store, contactAttributes: contactAttributes)
        return HookAnswer(
            result: decision.isOpen ? .open : .closed, failure: nil, flowName: flow.name, store: store,
            decision: decision, ruleName: rule?.name ?? Flow.defaultRuleName,
            outputTemplates: rule?.outputs ?? flow.defaultOutputs, contactAttributes: contactAttributes)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
