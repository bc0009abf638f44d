import Foundation

/// What a hook call asks, from either body shape the hook accepts.
///
/// - The Amazon Connect Lambda event: `{"Name": "ContactFlowEvent", "Details": {"ContactData":
///   {"ContactId", "SystemEndpoint": {"Address"}, "Attributes": {...}, ...}, "Parameters": {...}}}`;
///   `at` is read from `Parameters.at`.
/// - A plain object (Twilio Studio, Genesys data actions): `{"storeId", "at", "dialedNumber",
///   "attributes": {...}, "parameters": {...}}`, every key optional.
///
/// Unknown keys are ignored. Strings may also be given as numbers or booleans; `null` is absent.
struct HookRequest: Hashable, Sendable {
    /// An explicit store id (plain shape only; Connect passes it as a parameter).
    var storeId: String?
    /// The number the caller dialed (Connect: `SystemEndpoint.Address`).
    var dialedNumber: String?
    /// The contact's attributes.
    var contactAttributes: [String: String] = [:]
    /// The hook's parameters.
    var parameters: [String: String] = [:]
    /// The instant to evaluate, as sent (ISO 8601), or `nil` for now.
    var at: String?

    /// Decodes a body.
    ///
    /// - Throws: ``HookRequestError`` with a reason for the 400 answer.
    static func decode(_ bytes: some Collection<UInt8>) throws(HookRequestError) -> HookRequest {
        guard !bytes.isEmpty else { throw HookRequestError("the body is empty: send a JSON object") }
        do {
            return try HookRequest.decoder.decode(Body.self, from: Data(bytes)).request
        } catch let error as DecodingError {
            throw HookRequestError(describing: error)
        } catch {
            throw HookRequestError("malformed JSON")
        }
    }

    private static let decoder = JSONDecoder()

    /// The body, in either shape.
    private struct Body: Decodable {
        var request = HookRequest()

        init(from decoder: any Decoder) throws {
            let root = try decoder.container(keyedBy: Key.self)
            if root.contains("Details") {
                let details = try root.nestedIfPresent("Details")
                let contact = try details?.nestedIfPresent("ContactData")
                request.contactAttributes = try contact?.stringMap("Attributes") ?? [:]
                request.dialedNumber = try contact?.nestedIfPresent("SystemEndpoint")?.string("Address")
                request.parameters = try details?.stringMap("Parameters") ?? [:]
                request.at = request.parameters["at"]
            } else {
                request.storeId = try root.string("storeId")
                request.dialedNumber = try root.string("dialedNumber")
                request.contactAttributes = try root.stringMap("attributes") ?? [:]
                request.parameters = try root.stringMap("parameters") ?? [:]
                request.at = try root.string("at") ?? request.parameters["at"]
            }
        }
    }

    /// Any key.
    struct Key: CodingKey, ExpressibleByStringLiteral {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(stringLiteral value: String) { self.stringValue = value }
    }

    /// A string written as a JSON string, number or boolean.
    struct FlexibleString: Decodable {
        var value: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                value = string
            } else if let bool = try? container.decode(Bool.self) {
                value = bool ? "true" : "false"
            } else if let integer = try? container.decode(Int64.self) {
                value = String(integer)
            } else if let number = try? container.decode(Double.self) {
                value = String(number)
            } else {
                throw DecodingError.typeMismatch(
                    String.self,
                    .init(codingPath: decoder.codingPath, debugDescription: "expected a string"))
            }
        }
    }
}

extension KeyedDecodingContainer where Key == HookRequest.Key {
    fileprivate func nestedIfPresent(_ key: Key) throws -> KeyedDecodingContainer<Key>? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try nestedContainer(keyedBy: Key.self, forKey: key)
    }

    fileprivate func string(_ key: Key) throws -> String? {
        try decodeIfPresent(HookRequest.FlexibleString.self, forKey: key)?.value
    }

    fileprivate func stringMap(_ key: Key) throws -> [String: String]? {
        guard let map = try decodeIfPresent([String: HookRequest.FlexibleString?].self, forKey: key) else {
            return nil
        }
        var result: [String: String] = [:]
        result.reserveCapacity(map.count)
        for (name, value) in map { if let value { result[name] = value.value } }
        return result
    }
}

/// Why a hook body cannot be used (answered 400).
struct HookRequestError: Error, Hashable, Sendable {
    /// What is wrong, for the caller.
    var reason: String

    init(_ reason: String) { self.reason = reason }

    init(describing error: DecodingError) {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : "`" + keys.joined(separator: ".") + "`"
        }
        switch error {
        case .typeMismatch(let type, let context):
            reason = "\(path(context)) must be \(type == String.self ? "a string" : "a JSON object")"
        case .valueNotFound(_, let context):
            reason = "\(path(context)) is missing"
        case .keyNotFound(let key, _):
            reason = "`\(key.stringValue)` is missing"
        case .dataCorrupted(let context):
            reason = context.codingPath.isEmpty ? "malformed JSON" : "\(path(context)) is not valid"
        @unknown default:
            reason = "malformed JSON"
        }
    }
}
