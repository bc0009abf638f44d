import Foundation
import Primitives

extension ContactEvent {
    /// Decodes one contact event, keeping the bytes in ``rawJSON``.
    ///
    /// Accepts every shape AWS documents for it (Amazon Connect administrator guide, "contact
    /// events"):
    /// - the EventBridge envelope (`version`, `id`, `detail-type`, `source`, `account`, `time`,
    ///   `region`, `resources`) around a `detail`, or the bare `detail` object alone (what a
    ///   target receives when its rule passes only `$.detail`);
    /// - `detail` members in camelCase (`contactId`, `queueInfo.queueArn`) or PascalCase
    ///   (`ContactId`, `QueueInfo.QueueArn`), mixed within one object as AWS's own samples mix
    ///   them, with `instanceArn` also read as `instanceARN`, and channels such as `Voice` read
    ///   as `VOICE`.
    ///
    /// Required: `detail.eventType` and `detail.contactId` (non-empty), and something to date
    /// the event. Without an envelope `id` or `time` the event gets a derived id and time, see
    /// ``derivedId(contactId:eventType:time:)`` and ``derivedTime(eventType:initiation:connectedToSystem:enqueue:connectedToAgent:disconnect:)``.
    /// When `detail-type` is present it must be `Amazon Connect Contact Event`, so a misrouted
    /// EventBridge rule is dead-lettered with a clear reason rather than folded in.
    ///
    /// - Parameters:
    ///   - jsonData: One event as UTF-8 JSON.
    ///   - form: What ``rawJSON`` keeps: the bytes as received, or the same value in `jsonb`'s
    ///     member order (what the ingest stores).
    /// - Throws: ``JSONDecodingError`` naming the field path as the message spells it,
    ///   e.g. `detail.queueInfo.enqueueTimestamp` or `detail.QueueInfo.EnqueueTimestamp`.
    public init(jsonData: Data, keepingRaw form: RawJSONForm = .asReceived) throws {
        self = try jsonData.withUnsafeBytes { bytes in
            try ContactEvent(bytes: bytes, keepingRaw: form, asReceived: jsonData)
        }
    }

    /// Decodes an event from JSON bytes, as ``init(jsonData:keepingRaw:)`` does. For the ingest,
    /// which holds each record's bytes in an array: with ``RawJSONForm/jsonbOrder`` they are
    /// parsed where they are, not copied into a `Data` first.
    public init(jsonBytes: [UInt8], keepingRaw form: RawJSONForm) throws {
        self = try jsonBytes.withUnsafeBytes { bytes in
            try ContactEvent(bytes: bytes, keepingRaw: form, asReceived: Data(bytes))
        }
    }

    /// The decoding both public entries share; `asReceived` is the bytes as a `Data`.
    private init(bytes: UnsafeRawBufferPointer, keepingRaw form: RawJSONForm, asReceived: @autoclosure () -> Data)
        throws
    {
        let (decoded, raw) = try JSONDocument.decodeRecord(
            "ContactEvent", bytes, keepingRaw: form, asReceived: asReceived()
        ) {
            try ContactEvent(root: $0)
        }
        self = decoded
        rawJSON = raw
    }

    /// The id of an event that came without the EventBridge envelope:
    /// `<contactId>/<eventType>/<time with milliseconds>`, e.g.
    /// `11111111-1111-1111-1111-111111111111/CONNECTED_TO_AGENT/2021-08-04T17:29:09.000Z`.
    ///
    /// Deterministic, so a re-delivery of the same bare event dedupes on it; it never collides
    /// with an EventBridge id (a UUID has no `/`). The same event delivered once with and once
    /// without the envelope gets two ids; a source delivers one shape consistently.
    public static func derivedId(contactId: String, eventType: EventType, time: UTCTimestamp) -> String {
        "\(contactId)/\(eventType.rawValue)/\(time.iso8601Milliseconds)"
    }

    /// The time of an event that came without the EventBridge envelope's `time`: the timestamp
    /// of the step the event reports (`INITIATED` → `initiationTimestamp`,
    /// `CONNECTED_TO_SYSTEM` → `connectedToSystemTimestamp`, `QUEUED` →
    /// `queueInfo.enqueueTimestamp`, `CONNECTED_TO_AGENT` → `agentInfo.connectedToAgentTimestamp`,
    /// `DISCONNECTED` → `disconnectTimestamp`); for other types, or when that timestamp is
    /// missing, the latest timestamp the detail carries (the event cannot precede a step it
    /// reports). `nil` when the detail carries none.
    public static func derivedTime(
        eventType: EventType, initiation: UTCTimestamp?, connectedToSystem: UTCTimestamp?, enqueue: UTCTimestamp?,
        connectedToAgent: UTCTimestamp?, disconnect: UTCTimestamp?
    ) -> UTCTimestamp? {
        let own: UTCTimestamp?
        switch eventType {
        case .initiated: own = initiation
        case .connectedToSystem: own = connectedToSystem
        case .queued: own = enqueue
        case .connectedToAgent: own = connectedToAgent
        case .disconnected: own = disconnect
        case .contactDataUpdated, .completed, .other: own = nil
        }
        return own ?? [initiation, connectedToSystem, enqueue, connectedToAgent, disconnect].compactMap { $0 }.max()
    }

    private init(root: JSONObjectReader) throws {
        // An EventBridge envelope has a `detail` (and usually `id`, `time`, `source`,
        // `detail-type`); a bare detail has none of these lowercase envelope members.
        let isEnvelope =
            root.lookup("detail") != nil || root.lookup("detail-type") != nil || root.lookup("source") != nil
            || root.lookup("id") != nil || root.lookup("time") != nil
        let detail: JSONObjectReader
        if isEnvelope {
            if let detailType = try root.string("detail-type"), detailType != Self.detailType {
                throw JSONDecodingError(
                    path: "detail-type",
                    reason: "expected \"\(Self.detailType)\", got \"\(detailType)\"; check the EventBridge rule that "
                        + "feeds the contact-events topic")
            }
            guard let envelopeDetail = try root.object("detail") else {
                throw JSONDecodingError(path: "detail", reason: "is required but is missing or null")
            }
            detail = envelopeDetail
        } else {
            guard
                root.hasValue("eventType") || root.hasValue("EventType") || root.hasValue("contactId")
                    || root.hasValue("ContactId")
            else {
                throw JSONDecodingError(
                    path: "detail",
                    reason: "is required but is missing or null: the message has no EventBridge envelope (id, time, "
                        + "source, detail-type, detail) and is not a bare contact event detail either (no eventType "
                        + "or contactId, in camelCase or PascalCase)")
            }
            detail = root
        }

        let eventType = EventType(
            rawValue: try detail.requiredString(detail.spelling("eventType", "EventType"), or: "EventType"))
        let contactId = try detail.requiredString(detail.spelling("contactId", "ContactId"), or: "ContactId")
        let queueInfo = try detail.object(detail.spelling("queueInfo", "QueueInfo")).map { reader in
            QueueInfo(
                queueArn: try reader.string(reader.spelling("queueArn", "QueueArn", "ARN")),
                queueType: try reader.string(reader.spelling("queueType", "QueueType")),
                enqueueTimestamp: try reader.timestamp(reader.spelling("enqueueTimestamp", "EnqueueTimestamp")))
        }
        let agentInfo = try detail.object(detail.spelling("agentInfo", "AgentInfo")).map { reader in
            AgentInfo(
                agentArn: try reader.string(reader.spelling("agentArn", "AgentArn", "AgentARN")),
                connectedToAgentTimestamp: try reader.timestamp(
                    reader.spelling("connectedToAgentTimestamp", "ConnectedToAgentTimestamp")))
        }
        let initiation = try detail.timestamp(detail.spelling("initiationTimestamp", "InitiationTimestamp"))
        let connectedToSystem = try detail.timestamp(
            detail.spelling("connectedToSystemTimestamp", "ConnectedToSystemTimestamp"))
        let disconnect = try detail.timestamp(detail.spelling("disconnectTimestamp", "DisconnectTimestamp"))

        let envelopeTime = isEnvelope ? try root.timestamp("time") : nil
        let time =
            envelopeTime
            ?? Self.derivedTime(
                eventType: eventType, initiation: initiation, connectedToSystem: connectedToSystem,
                enqueue: queueInfo?.enqueueTimestamp, connectedToAgent: agentInfo?.connectedToAgentTimestamp,
                disconnect: disconnect)
        guard let time else {
            let missing =
                isEnvelope
                ? "is missing or null"
                : "is missing: the message is a bare detail without the EventBridge envelope"
            throw JSONDecodingError(
                path: "time",
                reason: missing + ", and the detail carries no timestamp to date the event (initiationTimestamp, "
                    + "connectedToSystemTimestamp, queueInfo.enqueueTimestamp, agentInfo.connectedToAgentTimestamp, "
                    + "disconnectTimestamp)")
        }
        let id: String
        if isEnvelope, let envelopeId = try root.string("id") {
            guard !envelopeId.isEmpty else {
                throw JSONDecodingError(path: "id", reason: "must not be empty")
            }
            id = envelopeId
        } else {
            id = Self.derivedId(contactId: contactId, eventType: eventType, time: time)
        }

        self.init(
            id: id,
            time: time,
            eventType: eventType,
            contactId: contactId,
            version: isEnvelope ? try root.string("version") : nil,
            account: isEnvelope ? try root.string("account") : nil,
            region: isEnvelope ? try root.string("region") : nil,
            resources: isEnvelope ? try root.strings("resources") ?? [] : [],
            initialContactId: try detail.string(detail.spelling("initialContactId", "InitialContactId")),
            previousContactId: try detail.string(detail.spelling("previousContactId", "PreviousContactId")),
            channel: try detail.string(detail.spelling("channel", "Channel")).map(ContactChannel.init(wireValue:)),
            instanceArn: try detail.string(detail.spelling("instanceArn", "InstanceArn", "instanceARN", "InstanceARN")),
            initiationMethod: try detail.string(detail.spelling("initiationMethod", "InitiationMethod")),
            initiationTimestamp: initiation,
            connectedToSystemTimestamp: connectedToSystem,
            disconnectTimestamp: disconnect,
            queueInfo: queueInfo,
            agentInfo: agentInfo
        )
    }

    /// The event as EventBridge delivers it: the envelope (`version`, `id`, `detail-type`,
    /// `source`, `account`, `time`, `region`, `resources`) around the `detail`, with millisecond
    /// timestamps inside `detail`. Missing `account`, `region`, `instanceArn` and `resources`
    /// are derived from the queue or agent ARN. Decoding the result with ``init(jsonData:)``
    /// gives back this event with those derived values filled in.
    public func jsonData() -> Data {
        let arn = ConnectARN.first(of: [instanceArn, queueInfo?.queueArn, agentInfo?.agentArn])
        let instance = instanceArn ?? arn.instanceARN
        var writer = JSONWriter(capacity: 1536)
        writer.beginObject()
        writer.member("version", version)
        writer.member("id", id)
        writer.member("detail-type", Self.detailType)
        writer.member("source", "aws.connect")
        writer.member("account", account ?? arn.account)
        writer.member("time", time)
        writer.member("region", region ?? arn.region)
        writer.key("resources")
        writer.beginArray()
        for resource in resources.isEmpty ? [instance, "\(instance)/contact/\(contactId)"] : resources {
            writer.string(resource)
        }
        writer.endArray()
        writer.key("detail")
        writer.beginObject()
        writer.member("eventType", eventType.rawValue)
        writer.member("contactId", contactId)
        writer.member("initialContactId", initialContactId)
        writer.member("previousContactId", previousContactId)
        writer.member("channel", channel?.rawValue)
        writer.member("instanceArn", instance)
        writer.member("initiationMethod", initiationMethod)
        writer.member("initiationTimestamp", initiationTimestamp, milliseconds: true)
        if let connectedToSystemTimestamp {
            writer.member("connectedToSystemTimestamp", connectedToSystemTimestamp, milliseconds: true)
        }
        if let disconnectTimestamp { writer.member("disconnectTimestamp", disconnectTimestamp, milliseconds: true) }
        writer.key("queueInfo")
        if let queueInfo {
            writer.beginObject()
            writer.member("queueArn", queueInfo.queueArn)
            writer.member("queueType", queueInfo.queueType)
            writer.member("enqueueTimestamp", queueInfo.enqueueTimestamp, milliseconds: true)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("agentInfo")
        if let agentInfo {
            writer.beginObject()
            writer.member("agentArn", agentInfo.agentArn)
            writer.member("connectedToAgentTimestamp", agentInfo.connectedToAgentTimestamp, milliseconds: true)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("tags")
        writer.beginObject()
        writer.member("aws:connect:instanceId", arn.instanceId)
        writer.endObject()
        writer.endObject()
        writer.endObject()
        return writer.data
    }
}
