import Foundation
import Primitives

extension AgentEvent {
    /// Decodes one agent event record, keeping the bytes in ``rawJSON``.
    ///
    /// Required: `AgentARN`, `EventId` (non-empty strings), `EventTimestamp`, `EventType`; in a
    /// contact, `ContactId` and `State`. Everything else is optional and may be `null`, as in
    /// AWS's published samples: `PreviousAgentSnapshot` (absent on `HEART_BEAT`, `LOGIN`,
    /// `LOGOUT`), `AgentStatus.Type` (absent on older streams: derived from the status name, see
    /// ``AgentStatus/Kind/derived(fromName:)``), `NextAgentStatus`, `AgentHierarchyGroups`.
    /// Unknown event types, status types and contact states are kept as `.other`.
    ///
    /// - Parameters:
    ///   - jsonData: One agent event as UTF-8 JSON.
    ///   - form: What ``rawJSON`` keeps: the bytes as received, or the same value in `jsonb`'s
    ///     member order (what the ingest stores).
    /// - Throws: ``JSONDecodingError`` naming the field path, e.g.
    ///   `CurrentAgentSnapshot.Contacts[0].StateStartTimestamp`.
    public init(jsonData: Data, keepingRaw form: RawJSONForm = .asReceived) throws {
        self = try jsonData.withUnsafeBytes { bytes in
            try AgentEvent(bytes: bytes, keepingRaw: form, asReceived: jsonData)
        }
    }

    /// Decodes an event from JSON bytes, as ``init(jsonData:keepingRaw:)`` does. For the ingest,
    /// which holds each record's bytes in an array: with ``RawJSONForm/jsonbOrder`` they are
    /// parsed where they are, not copied into a `Data` first.
    public init(jsonBytes: [UInt8], keepingRaw form: RawJSONForm) throws {
        self = try jsonBytes.withUnsafeBytes { bytes in
            try AgentEvent(bytes: bytes, keepingRaw: form, asReceived: Data(bytes))
        }
    }

    /// The decoding both public entries share; `asReceived` is the bytes as a `Data`.
    private init(bytes: UnsafeRawBufferPointer, keepingRaw form: RawJSONForm, asReceived: @autoclosure () -> Data)
        throws
    {
        let (decoded, raw) = try JSONDocument.decodeRecord(
            "AgentEvent", bytes, keepingRaw: form, asReceived: asReceived()
        ) {
            try AgentEvent(root: $0)
        }
        self = decoded
        rawJSON = raw
    }

    private init(root: JSONObjectReader) throws {
        self.init(
            agentArn: try root.requiredString("AgentARN"),
            eventId: try root.requiredString("EventId"),
            eventTimestamp: try root.requiredTimestamp("EventTimestamp"),
            eventType: EventType(rawValue: try root.requiredString("EventType")),
            instanceArn: try root.string("InstanceARN"),
            awsAccountId: try root.string("AWSAccountId"),
            version: try root.string("Version"),
            currentSnapshot: try root.object("CurrentAgentSnapshot").map(AgentSnapshot.init(reader:)),
            previousSnapshot: try root.object("PreviousAgentSnapshot").map(AgentSnapshot.init(reader:))
        )
    }

    /// The event as the agent event stream writes it: compact JSON with `AWSAccountId`,
    /// `InstanceARN`, `Version`, the snapshots (with routing profile concurrency, queue channels
    /// and `NextAgentStatus`), millisecond timestamps. Decoding the result with
    /// ``init(jsonData:)`` gives back this event (plus ``rawJSON``).
    public func jsonData() -> Data {
        let arn = ConnectARN.first(of: [agentArn, instanceArn])
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.member("AWSAccountId", awsAccountId ?? arn.account)
        writer.member("AgentARN", agentArn)
        writer.key("CurrentAgentSnapshot")
        if let currentSnapshot { currentSnapshot.write(to: &writer) } else { writer.null() }
        writer.member("EventId", eventId)
        writer.member("EventTimestamp", eventTimestamp, milliseconds: true)
        writer.member("EventType", eventType.rawValue)
        writer.member("InstanceARN", instanceArn ?? arn.instanceARN)
        writer.key("PreviousAgentSnapshot")
        if let previousSnapshot { previousSnapshot.write(to: &writer) } else { writer.null() }
        writer.member("Version", version)
        writer.endObject()
        return writer.data
    }
}

extension AgentSnapshot {
    init(reader: JSONObjectReader) throws {
        self.init(
            status: try reader.object("AgentStatus").map(AgentStatus.init(reader:)),
            configuration: try reader.object("Configuration").map(AgentConfiguration.init(reader:)),
            contacts: try reader.objects("Contacts")?.map(AgentContact.init(reader:)) ?? [],
            nextStatus: try reader.object("NextAgentStatus").map(AgentNextStatus.init(reader:))
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("AgentStatus")
        if let status { status.write(to: &writer) } else { writer.null() }
        writer.key("Configuration")
        if let configuration { configuration.write(to: &writer) } else { writer.null() }
        writer.key("Contacts")
        writer.beginArray()
        for contact in contacts { contact.write(to: &writer) }
        writer.endArray()
        writer.key("NextAgentStatus")
        if let nextStatus { nextStatus.write(to: &writer) } else { writer.null() }
        writer.endObject()
    }
}

extension AgentNextStatus {
    init(reader: JSONObjectReader) throws {
        // The published sample spells the member `EnqueuedTimestamp` on one rendering of the
        // page and `EnqueueTimestamp` on another: read either.
        let key: StaticString = reader.lookup("EnqueuedTimestamp") != nil ? "EnqueuedTimestamp" : "EnqueueTimestamp"
        self.init(
            name: try reader.string("Name"), arn: try reader.string("ARN"), enqueuedTimestamp: try reader.timestamp(key)
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("ARN", arn)
        writer.member("EnqueuedTimestamp", enqueuedTimestamp, milliseconds: true)
        writer.member("Name", name)
        writer.endObject()
    }
}

extension AgentStatus {
    /// Reads `{ARN, Name, StartTimestamp, Type}`; a missing, `null` or empty `Type` is derived
    /// from `Name` (``Kind/derived(fromName:)``).
    init(reader: JSONObjectReader) throws {
        let name = try reader.string("Name")
        let type = try reader.string("Type")
        self.init(
            name: name,
            type: type.flatMap { $0.isEmpty ? nil : Kind(rawValue: $0) } ?? Kind.derived(fromName: name),
            startTimestamp: try reader.timestamp("StartTimestamp"),
            arn: try reader.string("ARN")
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("ARN", arn)
        writer.member("Name", name)
        writer.member("StartTimestamp", startTimestamp, milliseconds: true)
        writer.member("Type", type.rawValue)
        writer.endObject()
    }
}

extension AgentConfiguration {
    init(reader: JSONObjectReader) throws {
        self.init(
            username: try reader.string("Username"),
            firstName: try reader.string("FirstName"),
            lastName: try reader.string("LastName"),
            routingProfile: try reader.object("RoutingProfile").map(AgentRoutingProfile.init(reader:)),
            hierarchyGroups: try reader.object("AgentHierarchyGroups").map {
                try AgentHierarchyGroups(reader: $0, nameKey: "Name")
            }
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("AgentHierarchyGroups")
        if let hierarchyGroups {
            writer.beginObject()
            for (key, level) in zip(["Level1", "Level2", "Level3", "Level4", "Level5"], hierarchyGroups.levels) {
                writer.key(key)
                if let level { level.write(to: &writer) } else { writer.null() }
            }
            writer.endObject()
        } else {
            writer.null()
        }
        writer.member("FirstName", firstName)
        writer.member("LastName", lastName)
        writer.key("RoutingProfile")
        if let routingProfile { routingProfile.write(to: &writer) } else { writer.null() }
        writer.member("Username", username)
        writer.endObject()
    }
}

extension AgentRoutingProfile {
    init(reader: JSONObjectReader) throws {
        self.init(
            arn: try reader.string("ARN"),
            name: try reader.string("Name"),
            inboundQueues: try reader.objects("InboundQueues")?.map(ResourceReference.init) ?? [],
            defaultOutboundQueue: try reader.object("DefaultOutboundQueue").map(ResourceReference.init)
        )
    }

    func write(to writer: inout JSONWriter) {
        func writeQueue(_ queue: ResourceReference, to writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("ARN", queue.arn)
            writer.key("Channels")
            writer.beginArray()
            writer.string("VOICE")
            writer.endArray()
            writer.member("Name", queue.name)
            writer.endObject()
        }
        writer.beginObject()
        writer.member("ARN", arn)
        writer.key("Concurrency")
        writer.beginArray()
        writer.beginObject()
        writer.member("AvailableSlots", 1)
        writer.member("Channel", "VOICE")
        writer.member("MaximumSlots", 1)
        writer.endObject()
        writer.endArray()
        writer.key("DefaultOutboundQueue")
        if let defaultOutboundQueue { writeQueue(defaultOutboundQueue, to: &writer) } else { writer.null() }
        writer.key("InboundQueues")
        writer.beginArray()
        for queue in inboundQueues { writeQueue(queue, to: &writer) }
        writer.endArray()
        writer.member("Name", name)
        writer.endObject()
    }
}

extension AgentContact {
    init(reader: JSONObjectReader) throws {
        self.init(
            contactId: try reader.requiredString("ContactId"),
            initialContactId: try reader.string("InitialContactId"),
            channel: try reader.string("Channel").map(ContactChannel.init(wireValue:)),
            initiationMethod: try reader.string("InitiationMethod"),
            state: State(rawValue: try reader.requiredString("State")),
            stateStartTimestamp: try reader.timestamp("StateStartTimestamp"),
            connectedToAgentTimestamp: try reader.timestamp("ConnectedToAgentTimestamp"),
            queueTimestamp: try reader.timestamp("QueueTimestamp"),
            queue: try reader.object("Queue").map(ResourceReference.init)
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("Channel", channel?.rawValue)
        writer.member("ConnectedToAgentTimestamp", connectedToAgentTimestamp, milliseconds: true)
        writer.member("ContactId", contactId)
        writer.member("InitialContactId", initialContactId)
        writer.member("InitiationMethod", initiationMethod)
        writer.key("Queue")
        if let queue { queue.write(to: &writer) } else { writer.null() }
        writer.member("QueueTimestamp", queueTimestamp, milliseconds: true)
        writer.member("State", state.rawValue)
        writer.member("StateStartTimestamp", stateStartTimestamp, milliseconds: true)
        writer.endObject()
    }
}
