import Foundation
import Primitives

extension ContactTraceRecord {
    /// The record as Amazon Connect would write it: compact JSON, members in alphabetical order,
    /// with the envelope and media members a real record carries (`AWSAccountId`,
    /// `AWSContactTraceRecordFormatVersion`, `InstanceARN`, `MediaStreams`, `Recording`,
    /// `Recordings`, `Tags`, `References`, …), typically 2–3 KB.
    ///
    /// The account, region and instance come from the queue, agent or routing profile ARN.
    /// Decoding the result with ``init(jsonData:)`` gives back this record (plus ``rawJSON``).
    ///
    /// - Note: Returns the freshly encoded model, not ``rawJSON``; use ``rawJSON`` to forward
    ///   the bytes as received.
    public func jsonData() -> Data {
        let arn = ConnectARN.first(of: [queue?.arn, agent?.arn, agent?.routingProfile?.arn])
        let isVoice = channel == .voice
        let recordingLocation =
            "connect-recordings-\(arn.account)/connect/switchboard/CallRecordings/"
            + "\(contactId)_\((agent?.connectedToAgentTimestamp ?? initiationTimestamp)?.iso8601 ?? "")_UTC.wav"
        var writer = JSONWriter(capacity: 3072)
        writer.beginObject()
        writer.member("AWSAccountId", arn.account)
        writer.member("AWSContactTraceRecordFormatVersion", Self.formatVersion)
        writer.key("Agent")
        if let agent { agent.write(to: &writer) } else { writer.null() }
        writer.member("AgentConnectionAttempts", agentConnectionAttempts ?? (agent == nil ? 0 : 1))
        writer.nullMember("AnsweringMachineDetectionStatus")
        writer.key("Attributes")
        writer.stringMap(attributes)
        writer.nullMember("Campaign")
        writer.member("Channel", channel?.rawValue)
        writer.member("ConnectedToSystemTimestamp", connectedToSystemTimestamp)
        writer.key("ContactDetails")
        writer.beginObject()
        writer.endObject()
        writer.member("ContactId", contactId)
        writer.key("CustomerEndpoint")
        if let customerEndpoint { customerEndpoint.write(to: &writer) } else { writer.null() }
        writer.member("DisconnectReason", disconnectReason)
        writer.member("DisconnectTimestamp", disconnectTimestamp)
        writer.member("InitialContactId", initialContactId)
        writer.member("InitiationMethod", initiationMethod)
        writer.member("InitiationTimestamp", initiationTimestamp)
        writer.member("InstanceARN", arn.instanceARN)
        writer.member("LastUpdateTimestamp", lastUpdateTimestamp)
        writer.key("MediaStreams")
        writer.beginArray()
        writer.beginObject()
        writer.member("Type", isVoice ? "AUDIO" : (channel?.rawValue ?? "AUDIO"))
        writer.endObject()
        writer.endArray()
        writer.member("NextContactId", nextContactId)
        writer.member("PreviousContactId", previousContactId)
        writer.key("Queue")
        if let queue { queue.write(to: &writer) } else { writer.null() }
        writer.key("Recording")
        if isVoice, agent?.connectedToAgentTimestamp != nil {
            writer.beginObject()
            writer.nullMember("DeletionReason")
            writer.member("Location", recordingLocation)
            writer.member("Status", "AVAILABLE")
            writer.member("Type", "AUDIO")
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("Recordings")
        writer.beginArray()
        if isVoice, let agent, let connected = agent.connectedToAgentTimestamp {
            writer.beginObject()
            writer.nullMember("DeletionReason")
            writer.nullMember("FragmentStartNumber")
            writer.nullMember("FragmentStopNumber")
            writer.member("Location", recordingLocation)
            writer.member("MediaStreamType", "AUDIO")
            writer.nullMember("ParticipantType")
            writer.member("StartTimestamp", connected)
            writer.member("Status", "AVAILABLE")
            writer.member("StopTimestamp", disconnectTimestamp)
            writer.member("StorageType", "S3")
            writer.endObject()
        }
        writer.endArray()
        writer.key("References")
        writer.beginArray()
        writer.endArray()
        writer.nullMember("ScheduledTimestamp")
        writer.key("SystemEndpoint")
        if let systemEndpoint { systemEndpoint.write(to: &writer) } else { writer.null() }
        writer.key("Tags")
        writer.beginObject()
        writer.member("aws:connect:instanceId", arn.instanceId)
        writer.endObject()
        writer.member("TransferCompletedTimestamp", transferCompletedTimestamp)
        writer.key("TransferredToEndpoint")
        if let transferredToEndpoint { transferredToEndpoint.write(to: &writer) } else { writer.null() }
        writer.nullMember("VoiceIdResult")
        writer.endObject()
        return writer.data
    }
}

extension ContactTraceRecord.Endpoint {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("Address", address)
        writer.member("Type", type)
        writer.endObject()
    }
}

extension ContactTraceRecord.Queue {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("ARN", arn)
        writer.member("DequeueTimestamp", dequeueTimestamp)
        writer.member("Duration", duration)
        writer.member("EnqueueTimestamp", enqueueTimestamp)
        writer.member("Name", name)
        writer.endObject()
    }
}

extension ContactTraceRecord.Agent {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("ARN", arn)
        writer.member("AfterContactWorkDuration", afterContactWorkDuration)
        writer.member("AfterContactWorkEndTimestamp", afterContactWorkEndTimestamp)
        writer.member("AfterContactWorkStartTimestamp", afterContactWorkStartTimestamp)
        writer.member("AgentInteractionDuration", agentInteractionDuration)
        writer.member("ConnectedToAgentTimestamp", connectedToAgentTimestamp)
        writer.member("CustomerHoldDuration", customerHoldDuration)
        writer.key("DeviceInfo")
        writer.beginObject()
        writer.member("OperatingSystem", "Windows 10")
        writer.member("PlatformName", "Chrome")
        writer.member("PlatformVersion", "131.0")
        writer.endObject()
        writer.key("HierarchyGroups")
        if let hierarchyGroups { hierarchyGroups.write(to: &writer, nameKey: "GroupName") } else { writer.null() }
        writer.member("LongestHoldDuration", longestHoldDuration)
        writer.member("NumberOfHolds", numberOfHolds)
        writer.key("RoutingProfile")
        if let routingProfile { routingProfile.write(to: &writer) } else { writer.null() }
        writer.member("Username", username)
        writer.endObject()
    }
}

extension AgentHierarchyGroups {
    /// Writes `{Level1 … Level5}`, each level `{ARN, <nameKey>}` (`GroupName` in contact records);
    /// absent levels are `null`.
    func write(to writer: inout JSONWriter, nameKey: String) {
        writer.beginObject()
        for (index, level) in levels.enumerated() {
            writer.key("Level\(index + 1)")
            if let level {
                writer.beginObject()
                writer.member("ARN", level.arn)
                writer.member(nameKey, level.name)
                writer.endObject()
            } else {
                writer.null()
            }
        }
        writer.endObject()
    }
}
