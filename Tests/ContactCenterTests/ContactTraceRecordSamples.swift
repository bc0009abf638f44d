/// Contact record shapes, written for these tests from the Amazon Connect administrator guide
/// page "Contact records data model" (its objects: `Agent`, `AgentHierarchyGroups`,
/// `ContactDetails`, `Endpoint`, `MediaStream`, `QueueInfo`, `RecordingInfo`, `RecordingsInfo`,
/// `References`, and its section "How to identify abandoned contacts"), with the members the
/// Amazon Connect API reference documents for the newer objects (`QualityMetrics`,
/// `DeviceInfo`, `Campaign`, `SegmentAttributes`). One chain per scenario: first contacts have
/// `InitialContactId`, `PreviousContactId` and `NextContactId` `null`.
enum ContactTraceRecordSamples {
    static let instance = "arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111"
    static let queue = "\(instance)/queue/q-reservations"
    static let callbackQueue = "\(instance)/queue/q-callbacks"
    static let outboundQueue = "\(instance)/queue/q-outbound"
    static let agent = "\(instance)/agent/a-1"
    static let profile = "\(instance)/routing-profile/rp-1"

    /// "How to identify abandoned contacts": queued (`Queue` with `EnqueueTimestamp`), never
    /// connected to an agent (`Agent` is `null`), the customer hung up.
    static let abandoned = #"""
        {"AWSAccountId":"123456789012","AWSContactTraceRecordFormatVersion":"2017-03-10","Agent":null,
         "AgentConnectionAttempts":0,"AnsweringMachineDetectionStatus":null,"Attributes":{"storeId":"seattle-001"},
         "Campaign":null,"Channel":"VOICE","ConnectedToSystemTimestamp":"2024-05-13T10:00:01Z","ContactDetails":{},
         "ContactId":"c-abandoned","CustomerEndpoint":{"Address":"+12065550100","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"CUSTOMER_DISCONNECT","DisconnectTimestamp":"2024-05-13T10:01:10Z",
         "InitialContactId":null,"InitiationMethod":"INBOUND","InitiationTimestamp":"2024-05-13T10:00:01Z",
         "InstanceARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "LastUpdateTimestamp":"2024-05-13T10:02:11Z","MediaStreams":[{"Type":"AUDIO"}],"NextContactId":null,
         "PreviousContactId":null,
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-13T10:01:10Z","Duration":62,"EnqueueTimestamp":"2024-05-13T10:00:08Z","Name":"Reservations"},
         "Recording":null,"Recordings":[],"References":[],"RelatedContactId":null,"ScheduledTimestamp":null,
         "SegmentAttributes":{"connect:Subtype":{"ValueString":"connect:Telephony"}},
         "SystemEndpoint":{"Address":"+12065550199","Type":"TELEPHONE_NUMBER"},"Tags":{},
         "TransferCompletedTimestamp":null,"TransferredToEndpoint":null,"VoiceIdResult":null}
        """#

    /// An answered call the agent transferred out of Amazon Connect to an external number
    /// (`TransferCompletedTimestamp`, `TransferredToEndpoint`) after a missed first offer
    /// (`AgentConnectionAttempts` 2); the agent is in a five-level hierarchy (`{ARN,
    /// GroupName}`), with `DeviceInfo`, recordings and `QualityMetrics`.
    static let answeredTransferredOut = #"""
        {"AWSAccountId":"123456789012","AWSContactTraceRecordFormatVersion":"2017-03-10",
         "Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-1",
           "AfterContactWorkDuration":31,"AfterContactWorkEndTimestamp":"2024-05-13T10:09:31Z",
           "AfterContactWorkStartTimestamp":"2024-05-13T10:09:00Z","AgentInteractionDuration":372,
           "ConnectedToAgentTimestamp":"2024-05-13T10:02:40Z","CustomerHoldDuration":18,
           "DeviceInfo":{"OperatingSystem":"Windows 10","PlatformName":"Chrome","PlatformVersion":"124.0"},
           "HierarchyGroups":{
             "Level1":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/g1","GroupName":"Americas"},
             "Level2":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/g2","GroupName":"Washington"},
             "Level3":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/g3","GroupName":"Seattle"},
             "Level4":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/g4","GroupName":"Downtown"},
             "Level5":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/g5","GroupName":"Team Pike"}},
           "LongestHoldDuration":18,"NumberOfHolds":1,
           "RoutingProfile":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/routing-profile/rp-1","Name":"Reservations"},
           "Username":"jdoe"},
         "AgentConnectionAttempts":2,"Attributes":{"storeId":"seattle-001","intent":"catering"},"Campaign":null,
         "Channel":"VOICE","ConnectedToSystemTimestamp":"2024-05-13T10:02:00Z","ContactDetails":{},"ContactId":"c-transfer-out",
         "CustomerEndpoint":{"Address":"+12065550101","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"THIRD_PARTY_DISCONNECT","DisconnectTimestamp":"2024-05-13T10:12:45Z",
         "InitialContactId":null,"InitiationMethod":"INBOUND","InitiationTimestamp":"2024-05-13T10:02:00Z",
         "InstanceARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "LastUpdateTimestamp":"2024-05-13T10:13:50Z","MediaStreams":[{"Type":"AUDIO"}],"NextContactId":null,
         "PreviousContactId":null,
         "QualityMetrics":{"Agent":{"Audio":{"PotentialQualityIssues":[],"QualityScore":4.8}},
           "Customer":{"Audio":{"PotentialQualityIssues":["HighPacketLoss"],"QualityScore":3.1}}},
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-13T10:02:40Z","Duration":32,"EnqueueTimestamp":"2024-05-13T10:02:08Z","Name":"Reservations"},
         "Recording":{"DeletionReason":null,"Location":"connect-recordings/2024/05/13/c-transfer-out.wav","Status":"AVAILABLE","Type":"AUDIO"},
         "Recordings":[{"DeletionReason":null,"FragmentStartNumber":null,"FragmentStopNumber":null,
           "Location":"connect-recordings/2024/05/13/c-transfer-out.wav","MediaStreamType":"AUDIO","ParticipantType":"Agent",
           "StartTimestamp":"2024-05-13T10:02:40Z","Status":"AVAILABLE","StopTimestamp":"2024-05-13T10:09:00Z","StorageType":"S3"}],
         "References":[],"ScheduledTimestamp":null,
         "SegmentAttributes":{"connect:Subtype":{"ValueString":"connect:Telephony"}},
         "SystemEndpoint":{"Address":"+12065550199","Type":"TELEPHONE_NUMBER"},
         "Tags":{"aws:connect:instanceId":"aaaaaaaa-bbbb-cccc-dddd-111111111111","Department":"Reservations"},
         "TransferCompletedTimestamp":"2024-05-13T10:09:00Z",
         "TransferredToEndpoint":{"Address":"+12065550142","Type":"TELEPHONE_NUMBER"},"VoiceIdResult":null}
        """#

    /// A caller who chose a queued callback while in queue ("About queued callbacks in
    /// metrics"): queued, no agent, continued by the callback contact (`NextContactId`).
    static let callbackRequested = #"""
        {"AWSContactTraceRecordFormatVersion":"2017-03-10","Agent":null,"AgentConnectionAttempts":0,"Attributes":{},
         "Channel":"VOICE","ContactId":"c-original","CustomerEndpoint":{"Address":"+12065550102","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"CONTACT_FLOW_DISCONNECT","DisconnectTimestamp":"2024-05-13T11:03:00Z",
         "InitialContactId":null,"InitiationMethod":"INBOUND","InitiationTimestamp":"2024-05-13T11:00:00Z",
         "LastUpdateTimestamp":"2024-05-13T11:04:00Z","NextContactId":"c-callback","PreviousContactId":null,
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-13T11:03:00Z","Duration":170,"EnqueueTimestamp":"2024-05-13T11:00:10Z","Name":"Reservations"},
         "SystemEndpoint":{"Address":"+12065550199","Type":"TELEPHONE_NUMBER"},
         "TransferCompletedTimestamp":null,"TransferredToEndpoint":null}
        """#

    /// The callback itself: `InitiationMethod` `CALLBACK`, chained to the original contact,
    /// answered by an agent; the system endpoint shows `Softphone`, as the data model says.
    static let callback = #"""
        {"AWSContactTraceRecordFormatVersion":"2017-03-10",
         "Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-1",
           "AgentInteractionDuration":95,"ConnectedToAgentTimestamp":"2024-05-13T11:20:05Z","HierarchyGroups":null,
           "RoutingProfile":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/routing-profile/rp-1","Name":"Reservations"},
           "Username":"jdoe"},
         "AgentConnectionAttempts":1,"Attributes":{},"Channel":"VOICE","ConnectedToSystemTimestamp":"2024-05-13T11:20:12Z",
         "ContactId":"c-callback","CustomerEndpoint":{"Address":"+12065550102","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"AGENT_DISCONNECT","DisconnectTimestamp":"2024-05-13T11:21:47Z",
         "InitialContactId":"c-original","InitiationMethod":"CALLBACK","InitiationTimestamp":"2024-05-13T11:03:00Z",
         "LastUpdateTimestamp":"2024-05-13T11:22:50Z","NextContactId":null,"PreviousContactId":"c-original",
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-callbacks",
           "DequeueTimestamp":"2024-05-13T11:20:05Z","Duration":1025,"EnqueueTimestamp":"2024-05-13T11:03:00Z","Name":"Callbacks"},
         "SystemEndpoint":{"Address":"Softphone","Type":"TELEPHONE_NUMBER"}}
        """#

    /// A contact an agent transferred to a queue with a quick connect: `InitiationMethod`
    /// `TRANSFER`, a new record chained to the first one.
    static let agentTransfer = #"""
        {"Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-2",
           "ConnectedToAgentTimestamp":"2024-05-13T12:05:30Z","AgentInteractionDuration":120,"Username":"asmith"},
         "AgentConnectionAttempts":1,"Channel":"VOICE","ContactId":"c-transfer-2","DisconnectReason":"CUSTOMER_DISCONNECT",
         "DisconnectTimestamp":"2024-05-13T12:07:30Z","InitialContactId":"c-transfer-1","InitiationMethod":"TRANSFER",
         "InitiationTimestamp":"2024-05-13T12:05:00Z","LastUpdateTimestamp":"2024-05-13T12:08:00Z","NextContactId":null,
         "PreviousContactId":"c-transfer-1",
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-13T12:05:30Z","Duration":28,"EnqueueTimestamp":"2024-05-13T12:05:02Z","Name":"Reservations"}}
        """#

    /// A contact a flow block moved from one queue to another: `InitiationMethod`
    /// `QUEUE_TRANSFER`, queued in the new queue.
    static let queueTransfer = #"""
        {"Agent":null,"AgentConnectionAttempts":0,"Channel":"VOICE","ContactId":"c-queue-2",
         "DisconnectReason":"CUSTOMER_DISCONNECT","DisconnectTimestamp":"2024-05-13T13:04:00Z",
         "InitialContactId":"c-queue-1","InitiationMethod":"QUEUE_TRANSFER","InitiationTimestamp":"2024-05-13T13:02:00Z",
         "LastUpdateTimestamp":"2024-05-13T13:05:00Z","NextContactId":null,"PreviousContactId":"c-queue-1",
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-callbacks",
           "DequeueTimestamp":"2024-05-13T13:04:00Z","Duration":118,"EnqueueTimestamp":"2024-05-13T13:02:02Z","Name":"Callbacks"}}
        """#

    /// An agent-dialled outbound call from the CCP: `InitiationMethod` `OUTBOUND`, the outbound
    /// queue without queue time, connected when the customer answered.
    static let outbound = #"""
        {"Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-1",
           "AgentInteractionDuration":64,"ConnectedToAgentTimestamp":"2024-05-13T14:00:00Z","Username":"jdoe"},
         "AgentConnectionAttempts":1,"Campaign":null,"Channel":"VOICE","ConnectedToSystemTimestamp":"2024-05-13T14:00:09Z",
         "ContactId":"c-outbound","CustomerEndpoint":{"Address":"+12065550103","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"AGENT_DISCONNECT","DisconnectTimestamp":"2024-05-13T14:01:13Z","InitialContactId":null,
         "InitiationMethod":"OUTBOUND","InitiationTimestamp":"2024-05-13T14:00:00Z","LastUpdateTimestamp":"2024-05-13T14:02:00Z",
         "NextContactId":null,"PreviousContactId":null,
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-outbound",
           "DequeueTimestamp":null,"Duration":0,"EnqueueTimestamp":null,"Name":"Outbound"},
         "SystemEndpoint":{"Address":"+12065550199","Type":"TELEPHONE_NUMBER"}}
        """#

    /// An outbound campaign call (API reference, `Contact`: `Campaign {CampaignId}`,
    /// `AnsweringMachineDetectionStatus`).
    static let campaign = #"""
        {"Agent":null,"AgentConnectionAttempts":0,"AnsweringMachineDetectionStatus":"VOICEMAIL_BEEP",
         "Campaign":{"CampaignId":"cmp-0001"},"Channel":"VOICE","ConnectedToSystemTimestamp":"2024-05-13T15:00:20Z",
         "ContactId":"c-campaign","CustomerEndpoint":{"Address":"+12065550104","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"CONTACT_FLOW_DISCONNECT","DisconnectTimestamp":"2024-05-13T15:00:41Z","InitiationMethod":"API",
         "InitiationTimestamp":"2024-05-13T15:00:00Z","LastUpdateTimestamp":"2024-05-13T15:01:00Z","Queue":null}
        """#

    /// A chat started through the API: no phone endpoints, a transcript in `Recordings`.
    static let chat = #"""
        {"Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-1",
           "AfterContactWorkDuration":12,"AgentInteractionDuration":410,"ConnectedToAgentTimestamp":"2024-05-13T16:00:25Z",
           "Username":"jdoe"},
         "AgentConnectionAttempts":1,"Attributes":{"storeId":"seattle-001"},"Channel":"CHAT",
         "ConnectedToSystemTimestamp":"2024-05-13T16:00:00Z","ContactId":"c-chat","CustomerEndpoint":null,
         "DisconnectReason":"CUSTOMER_DISCONNECT","DisconnectTimestamp":"2024-05-13T16:07:15Z","InitiationMethod":"API",
         "InitiationTimestamp":"2024-05-13T16:00:00Z","LastUpdateTimestamp":"2024-05-13T16:08:00Z","MediaStreams":[{"Type":"CHAT"}],
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-13T16:00:25Z","Duration":23,"EnqueueTimestamp":"2024-05-13T16:00:02Z","Name":"Reservations"},
         "Recording":null,
         "Recordings":[{"DeletionReason":null,"Location":"connect-transcripts/2024/05/13/c-chat.json","MediaStreamType":"CHAT",
           "ParticipantType":"All","StartTimestamp":"2024-05-13T16:00:25Z","Status":"AVAILABLE",
           "StopTimestamp":"2024-05-13T16:07:15Z","StorageType":"S3"}],
         "SegmentAttributes":{"connect:Subtype":{"ValueString":"connect:Chat"}},"SystemEndpoint":null}
        """#

    /// A task with `ContactDetails`, `References` and a `ScheduledTimestamp`, completed by the
    /// agent.
    static let task = #"""
        {"Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-1",
           "AgentInteractionDuration":300,"ConnectedToAgentTimestamp":"2024-05-14T09:00:05Z","Username":"jdoe"},
         "AgentConnectionAttempts":1,"Channel":"TASK","ContactDetails":{"Name":"Call back about the catering order",
           "Description":"Party of 40 on Friday"},"ContactId":"c-task","CustomerEndpoint":null,
         "DisconnectReason":"AGENT_DISCONNECT","DisconnectTimestamp":"2024-05-14T09:05:05Z","InitiationMethod":"API",
         "InitiationTimestamp":"2024-05-13T17:00:00Z","LastUpdateTimestamp":"2024-05-14T09:06:00Z",
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-14T09:00:05Z","Duration":3,"EnqueueTimestamp":"2024-05-14T09:00:02Z","Name":"Reservations"},
         "References":[{"Name":"Order","Type":"URL","Value":"https://example.com/orders/42"}],
         "ScheduledTimestamp":"2024-05-14T09:00:00Z","SystemEndpoint":null}
        """#

    /// An email contact: email-address endpoints.
    static let email = #"""
        {"Agent":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/a-1",
           "AgentInteractionDuration":180,"ConnectedToAgentTimestamp":"2024-05-13T18:10:00Z","Username":"jdoe"},
         "AgentConnectionAttempts":1,"Channel":"EMAIL","ContactId":"c-email",
         "CustomerEndpoint":{"Address":"guest@example.com","Type":"EMAIL_ADDRESS"},"DisconnectReason":null,
         "DisconnectTimestamp":"2024-05-13T18:13:00Z","InitiationMethod":"INBOUND","InitiationTimestamp":"2024-05-13T18:00:00Z",
         "LastUpdateTimestamp":"2024-05-13T18:14:00Z",
         "Queue":{"ARN":"arn:aws:connect:us-west-2:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/q-reservations",
           "DequeueTimestamp":"2024-05-13T18:10:00Z","Duration":598,"EnqueueTimestamp":"2024-05-13T18:00:02Z","Name":"Reservations"},
         "SystemEndpoint":{"Address":"reservations@example.com","Type":"EMAIL_ADDRESS"}}
        """#

    /// Every sample, named, for the "decodes every published shape" test.
    static let all: [(name: String, json: String)] = [
        ("abandoned", abandoned), ("answeredTransferredOut", answeredTransferredOut),
        ("callbackRequested", callbackRequested), ("callback", callback), ("agentTransfer", agentTransfer),
        ("queueTransfer", queueTransfer), ("outbound", outbound), ("campaign", campaign), ("chat", chat),
        ("task", task),
        ("email", email),
    ]
}
