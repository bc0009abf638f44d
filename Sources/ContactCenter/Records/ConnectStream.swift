import Foundation
import Primitives

/// The three streams Amazon Connect emits and Switchboard ingests, named as the receiver's
/// URL paths and the default topics name them.
public enum ConnectStream: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Contact trace records (key: `ContactId`).
    case contactRecords = "contact-records"
    /// Agent events (key: `AgentARN`, so one agent's events stay in order).
    case agentEvents = "agent-events"
    /// Contact events (key: `detail.contactId`, in either spelling, or the bare detail's).
    case contactEvents = "contact-events"

    public var description: String { rawValue }

    /// The model the stream carries, as decoding errors name it.
    var modelName: String {
        switch self {
        case .contactRecords: "ContactTraceRecord"
        case .agentEvents: "AgentEvent"
        case .contactEvents: "ContactEvent"
        }
    }

    /// The Kafka key of one message of this stream: the key the ingest and the console expect
    /// (`ContactId`, `AgentARN`, the contact event's `detail.contactId` or `detail.ContactId`,
    /// or the bare detail's).
    ///
    /// Much cheaper than decoding the model: only the members before the key are walked (see
    /// `JSONMemberFinder`), so a message malformed beyond its key gets a key here and is refused
    /// by the ingest's decoder, which dead-letters it. The field the key comes from is required
    /// by the stream's decoder as well, so a message without it could never be ingested.
    ///
    /// - Parameter message: One JSON object as UTF-8.
    /// - Throws: ``JSONDecodingError`` naming the model, the field and what was wrong.
    public func key(of message: UnsafeRawBufferPointer) throws(JSONDecodingError) -> String {
        let finder = JSONMemberFinder(bytes: message)
        do {
            let root = finder.skipWhitespace(0)
            guard root < message.count, message[root] == UInt8(ascii: "{") else {
                throw JSONDecodingError(path: "$", reason: "expected a JSON object at the top level")
            }
            switch self {
            case .contactRecords:
                return try Self.key(finder.member(["ContactId"], inObjectAt: root), path: "ContactId")
            case .agentEvents:
                return try Self.key(finder.member(["AgentARN"], inObjectAt: root), path: "AgentARN")
            case .contactEvents:
                // The envelope's detail, else the bare detail (see `ContactEvent.init(jsonData:)`).
                if case (_, .object(let detail))? = try finder.member(["detail"], inObjectAt: root) {
                    return try Self.key(
                        finder.member(["contactId", "ContactId"], inObjectAt: detail), path: "detail.contactId",
                        alternative: "ContactId")
                }
                return try Self.key(
                    finder.member(["contactId", "ContactId"], inObjectAt: root), path: "contactId",
                    alternative: "ContactId")
            }
        } catch let error as JSONDecodingError {
            throw error.attributed(to: modelName)
        } catch {
            throw JSONDecodingError(message: modelName, path: "$", reason: "\(error)")
        }
    }

    /// The key of a payload that is exactly one JSON object (whitespace around it aside), read in
    /// one walk of the object's structure: `nil` when the payload is not one object (it holds
    /// several, or garbage: `JSONObjectSplitter` takes it apart), else the key or why there is none.
    public func keyOfSingleObject(_ payload: UnsafeRawBufferPointer) -> Result<String, JSONDecodingError>? {
        let finder = JSONMemberFinder(bytes: payload)
        let start = finder.skipWhitespace(0)
        guard start < payload.count, payload[start] == UInt8(ascii: "{") else { return nil }
        let names: [StaticString] =
            switch self {
            case .contactRecords: ["ContactId"]
            case .agentEvents: ["AgentARN"]
            case .contactEvents: ["detail", "contactId", "ContactId"]
            }
        guard let (found, end) = try? finder.walk(names, objectAt: start), finder.skipWhitespace(end) == payload.count
        else { return nil }
        switch found {
        case (0, .object)? where self == .contactEvents:
            // An envelope: the key is in its detail.
            return Result { () throws(JSONDecodingError) in try key(of: payload) }
        case (0, _)? where self == .contactEvents:
            return .failure(JSONDecodingError(message: modelName, path: "detail", reason: "must be an object"))
        default:
            // A record's or an agent event's key, or a bare contact event detail's.
            let path = names[self == .contactEvents ? 1 : 0].description
            let alternative = self == .contactEvents ? "ContactId" : nil
            return Result { () throws(JSONDecodingError) in
                try Self.key(found, path: path, alternative: alternative)
            }.mapError { $0.attributed(to: modelName) }
        }
    }

    /// ``key(of:)`` over bytes.
    public func key(of message: some ContiguousBytes) throws(JSONDecodingError) -> String {
        let result = message.withUnsafeBytes { bytes in
            Result { () throws(JSONDecodingError) in try key(of: bytes) }
        }
        return try result.get()
    }

    /// The key from a found member: a non-empty string.
    private static func key(
        _ found: (Int, JSONMemberFinder.Value)?, path: String, alternative: String? = nil
    ) throws(JSONDecodingError) -> String {
        guard let (_, value) = found else {
            let also = alternative.map { " (and so is \($0))" } ?? ""
            throw JSONDecodingError(path: path, reason: "is required but is missing or null\(also)")
        }
        guard case .string(let key) = value else {
            throw JSONDecodingError(path: path, reason: "expected a string")
        }
        guard !key.isEmpty else { throw JSONDecodingError(path: path, reason: "must not be empty") }
        return key
    }
}
