import Foundation
import Primitives

extension ContactTraceRecord {
    /// Decodes a CTR from the JSON bytes Amazon Connect writes, keeping the bytes in ``rawJSON``.
    ///
    /// Tolerant where Amazon Connect varies: optional members may be absent or `null` (`Agent`
    /// and `Queue` are `null` on contacts that never reached an agent or a queue; the chain ids
    /// are `null` on a first contact), timestamps may have second or millisecond precision,
    /// channels may be any value (`VOICE`, `CHAT`, `TASK`, `EMAIL`, …), and members the model
    /// does not hold (`Recordings`, `References`, `ContactDetails`, `SegmentAttributes`,
    /// `Campaign`, `QualityMetrics`, `Tags`, `Agent.DeviceInfo`, …) are ignored here and kept in
    /// ``rawJSON``. Strict where the ingest depends on the value: `ContactId` must be a
    /// non-empty string, timestamps must parse, durations must be whole non-negative numbers,
    /// and the record must have a version (`LastUpdateTimestamp`, else `DisconnectTimestamp`,
    /// else `InitiationTimestamp`).
    ///
    /// - Parameters:
    ///   - jsonData: One CTR as UTF-8 JSON.
    ///   - form: What ``rawJSON`` keeps: the bytes as received, or the same value in `jsonb`'s
    ///     member order (what the ingest stores).
    /// - Throws: ``JSONDecodingError`` naming the field path and the problem, e.g.
    ///   path `Agent.AgentInteractionDuration`, reason `expected a whole number of seconds (a
    ///   JSON number), found a string "220"`.
    public init(jsonData: Data, keepingRaw form: RawJSONForm = .asReceived) throws {
        self = try jsonData.withUnsafeBytes { bytes in
            try ContactTraceRecord(bytes: bytes, keepingRaw: form, asReceived: jsonData)
        }
    }

    /// Decodes a CTR from JSON bytes, as ``init(jsonData:keepingRaw:)`` does. For the ingest,
    /// which holds each record's bytes in an array: with ``RawJSONForm/jsonbOrder`` they are
    /// parsed where they are, not copied into a `Data` first.
    public init(jsonBytes: [UInt8], keepingRaw form: RawJSONForm) throws {
        self = try jsonBytes.withUnsafeBytes { bytes in
            try ContactTraceRecord(bytes: bytes, keepingRaw: form, asReceived: Data(bytes))
        }
    }

    /// The decoding both public entries share; `asReceived` is the bytes as a `Data`.
    private init(bytes: UnsafeRawBufferPointer, keepingRaw form: RawJSONForm, asReceived: @autoclosure () -> Data)
        throws
    {
        let (decoded, raw) = try JSONDocument.decodeRecord(
            "ContactTraceRecord", bytes, keepingRaw: form, asReceived: asReceived()
        ) { try ContactTraceRecord(root: $0) }
        self = decoded
        rawJSON = raw
    }

    private init(root: JSONObjectReader) throws {
        let contactId = try root.requiredString("ContactId")
        let initiation = try root.timestamp("InitiationTimestamp")
        let disconnect = try root.timestamp("DisconnectTimestamp")
        guard let version = try root.timestamp("LastUpdateTimestamp") ?? disconnect ?? initiation else {
            throw JSONDecodingError(
                path: "LastUpdateTimestamp",
                reason: "is missing, and so are DisconnectTimestamp and InitiationTimestamp; the record has no "
                    + "version for the upsert guard")
        }
        self.init(
            contactId: contactId,
            initialContactId: try root.string("InitialContactId"),
            previousContactId: try root.string("PreviousContactId"),
            nextContactId: try root.string("NextContactId"),
            channel: try root.string("Channel").map(ContactChannel.init(wireValue:)),
            initiationMethod: try root.string("InitiationMethod"),
            initiationTimestamp: initiation,
            connectedToSystemTimestamp: try root.timestamp("ConnectedToSystemTimestamp"),
            disconnectTimestamp: disconnect,
            disconnectReason: try root.string("DisconnectReason"),
            lastUpdateTimestamp: version,
            customerEndpoint: try root.object("CustomerEndpoint").map(Endpoint.init(reader:)),
            systemEndpoint: try root.object("SystemEndpoint").map(Endpoint.init(reader:)),
            attributes: try root.stringMap("Attributes") ?? [:],
            queue: try root.object("Queue").map(Queue.init(reader:)),
            agent: try root.object("Agent").map(Agent.init(reader:)),
            agentConnectionAttempts: try root.wholeNumber("AgentConnectionAttempts", unit: "attempts"),
            transferCompletedTimestamp: try root.timestamp("TransferCompletedTimestamp"),
            transferredToEndpoint: try root.object("TransferredToEndpoint").map(Endpoint.init(reader:))
        )
    }
}

extension ContactTraceRecord.Endpoint {
    init(reader: JSONObjectReader) throws {
        self.init(address: try reader.string("Address"), type: try reader.string("Type"))
    }
}

extension ContactTraceRecord.Queue {
    init(reader: JSONObjectReader) throws {
        self.init(
            arn: try reader.string("ARN"),
            name: try reader.string("Name"),
            enqueueTimestamp: try reader.timestamp("EnqueueTimestamp"),
            dequeueTimestamp: try reader.timestamp("DequeueTimestamp"),
            duration: try reader.wholeNumber("Duration")
        )
    }
}

extension ContactTraceRecord.Agent {
    init(reader: JSONObjectReader) throws {
        self.init(
            arn: try reader.string("ARN"),
            username: try reader.string("Username"),
            connectedToAgentTimestamp: try reader.timestamp("ConnectedToAgentTimestamp"),
            agentInteractionDuration: try reader.wholeNumber("AgentInteractionDuration"),
            afterContactWorkStartTimestamp: try reader.timestamp("AfterContactWorkStartTimestamp"),
            afterContactWorkEndTimestamp: try reader.timestamp("AfterContactWorkEndTimestamp"),
            afterContactWorkDuration: try reader.wholeNumber("AfterContactWorkDuration"),
            customerHoldDuration: try reader.wholeNumber("CustomerHoldDuration"),
            numberOfHolds: try reader.wholeNumber("NumberOfHolds", unit: "holds"),
            longestHoldDuration: try reader.wholeNumber("LongestHoldDuration"),
            routingProfile: try reader.object("RoutingProfile").map(ResourceReference.init),
            hierarchyGroups: try reader.object("HierarchyGroups").map {
                try AgentHierarchyGroups(reader: $0, nameKey: "GroupName")
            }
        )
    }
}
