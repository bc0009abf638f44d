import Foundation
import Primitives

extension ContactEvent {
    /// Decodes one EventBridge contact event, keeping the bytes in ``rawJSON``.
    ///
    /// Required: `id` (non-empty), `time`, `detail`, `detail.eventType`, `detail.contactId`
    /// (non-empty). When `detail-type` is present it must be `Amazon Connect Contact Event`, so a
    /// misrouted EventBridge rule is dead-lettered with a clear reason rather than folded in.
    ///
    /// - Parameter jsonData: One event as UTF-8 JSON.
    /// - Throws: ``ContactCenterDecodingError`` naming the field path, e.g.
    ///   `detail.queueInfo.enqueueTimestamp`.
    public init(jsonData: Data) throws {
        do {
            self = try JSONDocument.parse(jsonData) { document in
                try ContactEvent(root: JSONObjectReader.root(document))
            }
        } catch let error as ContactCenterDecodingError {
            throw error.attributed(to: "ContactEvent")
        }
        rawJSON = jsonData
    }

    private init(root: JSONObjectReader) throws {
        if let detailType = try root.string("detail-type"), detailType != Self.detailType {
            throw ContactCenterDecodingError(
                path: "detail-type",
                reason: "expected \"\(Self.detailType)\", got \"\(detailType)\"; check the EventBridge rule that feeds "
                    + "the contact-events topic")
        }
        guard let detail = try root.object("detail") else {
            throw ContactCenterDecodingError(path: "detail", reason: "is required but is missing or null")
        }
        let queueInfo = try detail.object("queueInfo").map { reader in
            QueueInfo(
                queueArn: try reader.string("queueArn"),
                queueType: try reader.string("queueType"),
                enqueueTimestamp: try reader.timestamp("enqueueTimestamp"))
        }
        let agentInfo = try detail.object("agentInfo").map { reader in
            AgentInfo(
                agentArn: try reader.string("agentArn"),
                connectedToAgentTimestamp: try reader.timestamp("connectedToAgentTimestamp"))
        }
        self.init(
            id: try root.requiredString("id"),
            time: try root.requiredTimestamp("time"),
            eventType: EventType(rawValue: try detail.requiredString("eventType")),
            contactId: try detail.requiredString("contactId"),
            version: try root.string("version"),
            account: try root.string("account"),
            region: try root.string("region"),
            resources: try root.strings("resources") ?? [],
            initialContactId: try detail.string("initialContactId"),
            previousContactId: try detail.string("previousContactId"),
            channel: try detail.string("channel").map(ContactChannel.init(rawValue:)),
            instanceArn: try detail.string("instanceArn"),
            initiationMethod: try detail.string("initiationMethod"),
            initiationTimestamp: try detail.timestamp("initiationTimestamp"),
            disconnectTimestamp: try detail.timestamp("disconnectTimestamp"),
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
