import Foundation

@testable import ContactCenter

/// Realistic wire samples and builders shared by the tests.
enum Fixtures {
    static let instance = "arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
    static let queueTokyo = "\(instance)/queue/11111111-0000-0000-0000-000000000001"
    static let queueOsaka = "\(instance)/queue/11111111-0000-0000-0000-000000000002"
    static let agentHanako = "\(instance)/agent/22222222-0000-0000-0000-000000000001"
    static let agentTaro = "\(instance)/agent/22222222-0000-0000-0000-000000000002"
    static let profile = "\(instance)/routing-profile/33333333-0000-0000-0000-000000000001"

    /// 2026-11-20T09:00:00Z, 18:00 in Tokyo.
    static let base = UTCTimestamp(iso8601: "2026-11-20T09:00:00Z")!

    /// `base` plus `seconds`.
    static func at(_ seconds: Double) -> UTCTimestamp {
        base.adding(milliseconds: Int64(seconds * 1000))
    }

    /// `base` plus `seconds`, as the reducer's `now`.
    static func now(_ seconds: Double) -> Date { at(seconds).date }

    /// A CTR as Amazon Connect writes it, with members this version does not model
    /// (`FutureField`, `QualityMetrics`, `Tags` …), a millisecond timestamp and nulls.
    static let ctrJSON = #"""
        {"AWSAccountId":"123456789012","AWSContactTraceRecordFormatVersion":"2017-03-10",
         "Agent":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/agent/22222222-0000-0000-0000-000000000001",
           "AfterContactWorkDuration":25,"AfterContactWorkEndTimestamp":"2026-11-20T09:19:40Z",
           "AfterContactWorkStartTimestamp":"2026-11-20T09:19:15Z","AgentInteractionDuration":220,
           "ConnectedToAgentTimestamp":"2026-11-20T09:15:20.250Z","CustomerHoldDuration":15,"HierarchyGroups":null,
           "LongestHoldDuration":15,"NumberOfHolds":1,
           "RoutingProfile":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/routing-profile/33333333-0000-0000-0000-000000000001","Name":"Restaurants Tokyo"},
           "Username":"hanako.sato","DeviceInfo":{"PlatformName":"Chrome","PlatformVersion":"131.0"}},
         "AgentConnectionAttempts":1,
         "Attributes":{"storeId":"tokyo-shibuya-001","storeName":"寿司 渋谷","intent":"reservation","partySize":4,"vip":true,"note":null},
         "Channel":"VOICE","ConnectedToSystemTimestamp":"2026-11-20T09:15:02Z","ContactDetails":{},
         "ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe",
         "CustomerEndpoint":{"Address":"+81312345678","Type":"TELEPHONE_NUMBER"},
         "DisconnectReason":"CUSTOMER_DISCONNECT","DisconnectTimestamp":"2026-11-20T09:19:15Z",
         "InitialContactId":null,"InitiationMethod":"INBOUND","InitiationTimestamp":"2026-11-20T09:15:01Z",
         "InstanceARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
         "LastUpdateTimestamp":"2026-11-20T09:20:41Z","MediaStreams":[{"Type":"AUDIO"}],"NextContactId":null,
         "PreviousContactId":null,
         "Queue":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/queue/11111111-0000-0000-0000-000000000001",
           "DequeueTimestamp":"2026-11-20T09:15:20Z","Duration":12,"EnqueueTimestamp":"2026-11-20T09:15:08Z","Name":"Tokyo Reservations"},
         "Recording":{"DeletionReason":null,"Location":"connect-recordings/x.wav","Status":"AVAILABLE","Type":"AUDIO"},
         "Recordings":[{"Location":"connect-recordings/x.wav","MediaStreamType":"AUDIO","StorageType":"S3"}],
         "References":[],"ScheduledTimestamp":null,
         "SystemEndpoint":{"Address":"+81300000000","Type":"TELEPHONE_NUMBER"},
         "Tags":{"aws:connect:instanceId":"aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"},
         "TransferCompletedTimestamp":null,"TransferredToEndpoint":null,"VoiceIdResult":null,
         "FutureField":{"Nested":[1,2.5e3,"x\u00e9\ud83d\ude00"]}}
        """#

    /// A `STATE_CHANGE` agent event as the agent event stream writes it.
    static let agentEventJSON = #"""
        {"AWSAccountId":"123456789012",
         "AgentARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/agent/22222222-0000-0000-0000-000000000001",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/agent-state/s1",
             "Name":"Available","StartTimestamp":"2026-11-20T09:00:00.000Z","Type":"ROUTABLE"},
           "Configuration":{"AgentHierarchyGroups":null,"FirstName":"Hanako","LastName":"Sato",
             "RoutingProfile":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/routing-profile/33333333-0000-0000-0000-000000000001",
               "Concurrency":[{"AvailableSlots":0,"Channel":"VOICE","MaximumSlots":1}],
               "DefaultOutboundQueue":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/queue/11111111-0000-0000-0000-000000000001","Channels":["VOICE"],"Name":"Tokyo Reservations"},
               "InboundQueues":[{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/queue/11111111-0000-0000-0000-000000000001","Channels":["VOICE"],"Name":"Tokyo Reservations"}],
               "Name":"Restaurants Tokyo"},
             "Username":"hanako.sato"},
           "Contacts":[{"Channel":"VOICE","ConnectedToAgentTimestamp":"2026-11-20T09:15:20.250Z",
             "ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","InitialContactId":null,"InitiationMethod":"INBOUND",
             "Queue":{"ARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/queue/11111111-0000-0000-0000-000000000001","Name":"Tokyo Reservations"},
             "QueueTimestamp":"2026-11-20T09:15:08.000Z","State":"CONNECTED","StateStartTimestamp":"2026-11-20T09:15:20.250Z"}],
           "NextAgentStatus":null},
         "EventId":"c0ffee00-0000-4000-8000-000000000001","EventTimestamp":"2026-11-20T09:15:20.312Z",
         "EventType":"STATE_CHANGE",
         "InstanceARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
         "PreviousAgentSnapshot":{"AgentStatus":{"Name":"Available","StartTimestamp":"2026-11-20T09:00:00.000Z","Type":"ROUTABLE"},
           "Configuration":null,"Contacts":[]},
         "Version":"2017-10-01"}
        """#

    /// A `QUEUED` contact event as EventBridge delivers it.
    static let contactEventJSON = #"""
        {"version":"0","id":"9a2b4c6d-0000-4000-8000-000000000001","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"123456789012","time":"2026-11-20T09:15:08Z","region":"ap-northeast-1",
         "resources":["arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
           "arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/contact/5ca32fbd-8f92-46af-92a5-6b0f970f0efe"],
         "detail":{"eventType":"QUEUED","contactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","initialContactId":null,
           "channel":"VOICE","instanceArn":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
           "initiationMethod":"INBOUND","initiationTimestamp":"2026-11-20T09:15:01.000Z",
           "queueInfo":{"queueArn":"arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/queue/11111111-0000-0000-0000-000000000001",
             "queueType":"STANDARD","enqueueTimestamp":"2026-11-20T09:15:08.120Z"},
           "agentInfo":null,"tags":{"aws:connect:instanceId":"aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"}}}
        """#

    /// Replaces the first occurrence of `target` in `json`, to make a broken variant.
    static func replacing(_ target: String, with replacement: String, in json: String) -> Data {
        guard let range = json.range(of: target) else { fatalError("fixture does not contain \(target)") }
        return Data(json.replacingCharacters(in: range, with: replacement).utf8)
    }

    // MARK: - Builders for the reducer

    /// An agent event with a full snapshot.
    static func agentEvent(
        _ id: String,
        agent: String = agentHanako,
        at seconds: Double,
        type: AgentEvent.EventType = .stateChange,
        status: String = "Available",
        statusType: AgentStatus.Kind = .routable,
        statusSince: Double = 0,
        contacts: [AgentContact] = [],
        queues: [String] = [queueTokyo]
    ) -> AgentEvent {
        let firstName = agent == agentHanako ? "Hanako" : "Taro"
        return AgentEvent(
            agentArn: agent,
            eventId: id,
            eventTimestamp: at(seconds),
            eventType: type,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(name: status, type: statusType, startTimestamp: at(statusSince)),
                configuration: AgentConfiguration(
                    username: firstName.lowercased(), firstName: firstName, lastName: "Sato",
                    routingProfile: AgentRoutingProfile(
                        arn: profile, name: "Restaurants Tokyo",
                        inboundQueues: queues.map { ResourceReference(arn: $0, name: queueName($0)) })),
                contacts: contacts))
    }

    static func queueName(_ arn: String) -> String {
        arn == queueTokyo ? "Tokyo Reservations" : arn == queueOsaka ? "Osaka Reservations" : "Other"
    }

    /// A contact on an agent's desk.
    static func deskContact(_ contactId: String, _ state: AgentContact.State, since seconds: Double) -> AgentContact {
        AgentContact(
            contactId: contactId, state: state, stateStartTimestamp: at(seconds),
            queue: ResourceReference(arn: queueTokyo, name: "Tokyo Reservations"))
    }

    /// A contact event; queue and agent details only where given.
    static func contactEvent(
        _ id: String,
        contact: String,
        _ type: ContactEvent.EventType,
        at seconds: Double,
        queue: String? = nil,
        enqueuedAt: Double? = nil,
        agent: String? = nil,
        connectedAt: Double? = nil
    ) -> ContactEvent {
        ContactEvent(
            id: id, time: at(seconds), eventType: type, contactId: contact,
            queueInfo: queue.map { ContactEvent.QueueInfo(queueArn: $0, enqueueTimestamp: enqueuedAt.map(at)) },
            agentInfo: agent.map {
                ContactEvent.AgentInfo(agentArn: $0, connectedToAgentTimestamp: connectedAt.map(at))
            })
    }
}
