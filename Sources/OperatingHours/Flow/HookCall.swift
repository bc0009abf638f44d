import Primitives

/// What an IVR hook call asks, read from either body shape the hook accepts.
///
/// - The Amazon Connect Lambda event: `{"Name": "ContactFlowEvent", "Details": {"ContactData":
///   {"ContactId", "SystemEndpoint": {"Address"}, "Attributes": {...}, ...}, "Parameters": {...}}}`;
///   `at` is read from `Parameters.at`.
/// - A plain object (Twilio Studio, Genesys data actions): `{"storeId", "at", "dialedNumber",
///   "contactId", "attributes": {...}, "parameters": {...}}`, every key optional.
///
/// Unknown keys are ignored. A string may also be sent as a number or a boolean (kept as written:
/// `42`, `1.5e3`, `true`), because IVR builders often do; `null` reads as absent. With duplicate
/// keys the last one wins. The body is read with Primitives' strict JSON scanner (a few
/// microseconds for Connect's 1–2 KB event, against about 15 with `JSONDecoder`): the hook
/// answers while the caller hears silence. It is as strict as PostgreSQL's `jsonb`: `\u0000`,
/// unpaired surrogate escapes and invalid UTF-8 are refused (400).
public struct HookCall: Hashable, Sendable {
    /// An explicit store id (plain shape only; Connect passes it as a parameter).
    public var storeId: String?
    /// The number the caller dialed (Connect: `SystemEndpoint.Address`).
    public var dialedNumber: String?
    /// The contact's id, for the logs (Connect: `ContactData.ContactId`; plain: `contactId`).
    public var contactId: String?
    /// The contact's attributes.
    public var contactAttributes: [String: String]
    /// The hook's parameters.
    public var parameters: [String: String]
    /// The instant to evaluate, as sent (ISO 8601), or `nil` for now.
    public var at: String?

    /// Creates a call.
    public init(
        storeId: String? = nil, dialedNumber: String? = nil, contactId: String? = nil,
        contactAttributes: [String: String] = [:],
        parameters: [String: String] = [:], at: String? = nil
    ) {
        self.storeId = storeId
        self.dialedNumber = dialedNumber
        self.contactId = contactId
        self.contactAttributes = contactAttributes
        self.parameters = parameters
        self.at = at
    }

    /// Decodes a body.
    ///
    /// - Throws: ``HookCallError`` whose reason names the member and what it must be, for the
    ///   hook's 400 answer.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(HookCallError) -> HookCall {
        guard !bytes.isEmpty else { throw HookCallError("the body is empty: send a JSON object") }
        do {
            return try JSONDocument.parse(bytes: bytes) { document throws(HookCallError) in
                try decode(document)
            }
        } catch let error as HookCallError {
            throw error
        } catch let error as JSONDecodingError {
            throw HookCallError("malformed JSON: \(error.reason)")
        } catch {
            throw HookCallError("malformed JSON")
        }
    }

    private static func decode(_ document: JSONDocument) throws(HookCallError) -> HookCall {
        guard document.node(0).kind == .object else {
            throw HookCallError(
                "the body must be a JSON object, not \(JSONObjectReader.describe(document.node(0).kind))")
        }
        let root = Members(document: document, index: 0, path: "")
        var call = HookCall()
        if root.lookup("Details") != nil {
            let details = try root.object("Details")
            let contact = try details?.object("ContactData")
            call.contactAttributes = try contact?.stringMap("Attributes") ?? [:]
            call.dialedNumber = try contact?.object("SystemEndpoint")?.string("Address")
            call.contactId = try contact?.string("ContactId")
            call.parameters = try details?.stringMap("Parameters") ?? [:]
            call.at = call.parameters["at"]
        } else {
            call.storeId = try root.string("storeId")
            call.dialedNumber = try root.string("dialedNumber")
            call.contactId = try root.string("contactId")
            call.contactAttributes = try root.stringMap("attributes") ?? [:]
            call.parameters = try root.stringMap("parameters") ?? [:]
            call.at = try root.string("at") ?? call.parameters["at"]
        }
        return call
    }

    /// The members of one object of the body, with the hook's lenient string rule.
    private struct Members {
        let document: JSONDocument
        let index: Int
        let path: String

        func lookup(_ key: StaticString) -> Int? {
            JSONObjectReader(document: document, index: index, path: path).lookup(key)
        }

        func memberPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        /// The value of `key` unless absent or `null`.
        private func present(_ key: StaticString) -> Int? {
            guard let value = lookup(key), document.node(value).kind != .null else { return nil }
            return value
        }

        func object(_ key: StaticString) throws(HookCallError) -> Members? {
            guard let value = present(key) else { return nil }
            guard document.node(value).kind == .object else {
                throw HookCallError("`\(memberPath(key.description))` must be a JSON object")
            }
            return Members(document: document, index: value, path: memberPath(key.description))
        }

        func string(_ key: StaticString) throws(HookCallError) -> String? {
            guard let value = present(key) else { return nil }
            return try flexibleString(value, path: memberPath(key.description))
        }

        func stringMap(_ key: StaticString) throws(HookCallError) -> [String: String]? {
            guard let members = try object(key) else { return nil }
            var map: [String: String] = [:]
            map.reserveCapacity(Int(document.node(members.index).count))
            var cursor = members.index + 1
            let end = Int(document.node(members.index).next)
            while cursor < end {
                let value = cursor + 1
                let name = document.string(at: cursor)
                if document.node(value).kind == .null {
                    map[name] = nil
                } else {
                    map[name] = try flexibleString(value, path: members.memberPath(name))
                }
                cursor = Int(document.node(value).next)
            }
            return map
        }

        private func flexibleString(_ value: Int, path: String) throws(HookCallError) -> String {
            switch document.node(value).kind {
            case .string: return document.string(at: value)
            case .number: return document.literal(at: value)
            case .true: return "true"
            case .false: return "false"
            case .null, .object, .array: throw HookCallError("`\(path)` must be a string")
            }
        }
    }
}

/// Why a hook body cannot be used (the hook answers 400 with ``reason``).
public struct HookCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for the caller.
    public var reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
