import Foundation

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
    /// (`ContactId`, `AgentARN`, the contact event's contact id).
    ///
    /// Much cheaper than decoding the model: the message is scanned once (as strictly as the
    /// decoders and PostgreSQL's `jsonb` scan it, so a message accepted here is not refused as
    /// malformed JSON later) and only the key is read. The field the key comes from is required
    /// by the stream's decoder as well, so a message without it could never be ingested.
    ///
    /// - Parameter message: One JSON object as UTF-8.
    /// - Throws: ``ContactCenterDecodingError`` naming the model, the field and what was wrong.
    public func key(of message: UnsafeRawBufferPointer) throws(ContactCenterDecodingError) -> String {
        do {
            return try JSONDocument.parse(bytes: message) { document in
                let root = try JSONObjectReader.root(document)
                switch self {
                case .contactRecords: return try Self.nonEmpty(root, "ContactId")
                case .agentEvents: return try Self.nonEmpty(root, "AgentARN")
                case .contactEvents:
                    // The envelope's detail, else the bare detail (see `ContactEvent.init(jsonData:)`).
                    let detail = try root.object("detail") ?? root
                    return try Self.nonEmpty(detail, detail.spelling("contactId", "ContactId"), or: "ContactId")
                }
            }
        } catch let error as ContactCenterDecodingError {
            throw error.attributed(to: modelName)
        } catch {
            throw ContactCenterDecodingError(message: modelName, path: "$", reason: "\(error)")
        }
    }

    /// ``key(of:)`` over bytes.
    public func key(of message: some ContiguousBytes) throws(ContactCenterDecodingError) -> String {
        let result = message.withUnsafeBytes { bytes in
            Result { () throws(ContactCenterDecodingError) in try key(of: bytes) }
        }
        return try result.get()
    }

    private static func nonEmpty(
        _ reader: JSONObjectReader, _ name: StaticString, or alternative: StaticString? = nil
    ) throws -> String {
        let value = try alternative.map { try reader.requiredString(name, or: $0) } ?? reader.requiredString(name)
        guard !value.isEmpty else {
            throw ContactCenterDecodingError(path: reader.path(of: name), reason: "must not be empty")
        }
        return value
    }
}
