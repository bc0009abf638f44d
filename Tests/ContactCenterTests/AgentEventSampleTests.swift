import Foundation
import Primitives
import Testing

@testable import ContactCenter

/// The agent event shapes AWS publishes (see ``AgentEventSamples``), decoded field by field.
@Suite("AgentEvent published shapes")
struct AgentEventSampleTests {
    private func decode(_ json: String) throws -> AgentEvent {
        try AgentEvent(jsonData: Data(json.utf8))
    }

    private static func at(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }

    @Test("decodes every published sample, keeping its bytes", arguments: AgentEventSamples.all.map(\.name))
    func decodesEverySample(name: String) throws {
        let json = try #require(AgentEventSamples.all.first { $0.name == name }).json
        let event = try decode(json)
        #expect(event.agentArn == AgentEventSamples.agent)
        #expect(event.instanceArn == AgentEventSamples.instance)
        #expect(event.awsAccountId == "012345678901")
        #expect(event.version == "2017-10-01")
        #expect(event.rawJSON == Data(json.utf8))
        #expect(event.currentSnapshot?.status != nil)
    }

    @Test("HEART_BEAT in Offline: Type derived as OFFLINE, routing profile queues, empty contacts")
    func heartBeatOffline() throws {
        let event = try decode(AgentEventSamples.heartBeatOffline)
        #expect(event.eventId == "EventId-1")
        #expect(event.eventType == .heartBeat)
        #expect(event.eventTimestamp == Self.at("2019-08-13T20:58:44.031Z"))
        let current = try #require(event.currentSnapshot)
        #expect(
            current.status
                == AgentStatus(
                    name: "Offline", type: .offline, startTimestamp: Self.at("2019-08-13T20:52:30.704Z"),
                    arn: AgentEventSamples.offlineStatus))
        #expect(current.contacts.isEmpty)
        #expect(current.nextStatus == nil)
        let configuration = try #require(current.configuration)
        #expect(configuration.username == "aestest")
        #expect(configuration.firstName == "AgentEventStreamTest")
        #expect(configuration.lastName == "Agent")
        #expect(configuration.hierarchyGroups == nil)
        #expect(
            configuration.routingProfile
                == AgentRoutingProfile(
                    arn: AgentEventSamples.profile, name: "AgentEventStreamProfile",
                    inboundQueues: [
                        ResourceReference(arn: AgentEventSamples.agentQueue, name: nil),
                        ResourceReference(arn: AgentEventSamples.outboundQueue, name: "Omni-channel-queue"),
                    ],
                    defaultOutboundQueue: ResourceReference(arn: AgentEventSamples.outboundQueue, name: "OutboundQueue")
                ))
        #expect(event.previousSnapshot == current)
        #expect(AgentActivity(status: current.status?.type, contacts: current.contacts) == .offline)
    }

    @Test("Available with NextAgentStatus and no PreviousAgentSnapshot")
    func nextStatus() throws {
        let event = try decode(AgentEventSamples.availableWithNextStatus)
        #expect(event.eventType == .heartBeat)
        #expect(event.previousSnapshot == nil)
        let current = try #require(event.currentSnapshot)
        #expect(
            current.status
                == AgentStatus(
                    name: "Available", type: .routable, startTimestamp: Self.at("2019-08-13T20:52:30.704Z"),
                    arn: "example-ARN"))
        #expect(
            current.nextStatus
                == AgentNextStatus(
                    name: "Lunch", arn: "example-ARN2", enqueuedTimestamp: Self.at("2019-08-13T20:58:00.004Z")))
        #expect(
            current.configuration?.routingProfile?.inboundQueues == [
                ResourceReference(arn: AgentEventSamples.outboundQueue, name: "Omni-channel-queue")
            ])
    }

    @Test("NextAgentStatus.EnqueueTimestamp, as the page's other rendering spells it, is read too")
    func nextStatusOtherSpelling() throws {
        let json = AgentEventSamples.availableWithNextStatus.replacingOccurrences(
            of: #""EnqueuedTimestamp""#, with: #""EnqueueTimestamp""#)
        let event = try decode(json)
        #expect(event.currentSnapshot?.nextStatus?.enqueuedTimestamp == Self.at("2019-08-13T20:58:00.004Z"))
    }

    @Test("LOGIN and LOGOUT without a previous snapshot")
    func loginLogout() throws {
        let login = try decode(AgentEventSamples.login)
        #expect(login.eventType == .login)
        #expect(login.eventId == "EventId-3")
        #expect(login.previousSnapshot == nil)
        #expect(login.currentSnapshot?.status?.type == .offline)

        let logout = try decode(AgentEventSamples.logout)
        #expect(logout.eventType == .logout)
        #expect(logout.eventTimestamp == Self.at("2019-08-13T22:30:00.412Z"))
        #expect(logout.previousSnapshot == nil)
        #expect(logout.currentSnapshot?.status?.name == "Offline")
        #expect(logout.currentSnapshot?.status?.type == .offline)
    }

    @Test("a custom status name derives CUSTOM, the previous Available derives ROUTABLE")
    func customStatus() throws {
        let event = try decode(AgentEventSamples.customStatus)
        #expect(event.eventType == .stateChange)
        #expect(
            event.currentSnapshot?.status
                == AgentStatus(
                    name: "Break", type: .custom, startTimestamp: Self.at("2019-08-13T21:15:00.250Z"),
                    arn: "\(AgentEventSamples.instance)/agent-state/break-ARN"))
        #expect(event.previousSnapshot?.status?.type == .routable)
        let current = try #require(event.currentSnapshot)
        #expect(AgentActivity(status: current.status?.type, contacts: current.contacts) == .customStatus)
    }

    @Test("contacts with every documented member, and hierarchy groups")
    func onContacts() throws {
        let event = try decode(AgentEventSamples.onContacts)
        let current = try #require(event.currentSnapshot)
        let queue = ResourceReference(arn: AgentEventSamples.outboundQueue, name: "Omni-channel-queue")
        #expect(
            current.contacts == [
                AgentContact(
                    contactId: "33333333-3333-3333-3333-333333333333", initialContactId: nil, channel: .voice,
                    initiationMethod: "INBOUND", state: .connected,
                    stateStartTimestamp: Self.at("2019-08-13T21:20:11.503Z"),
                    connectedToAgentTimestamp: Self.at("2019-08-13T21:20:11.503Z"),
                    queueTimestamp: Self.at("2019-08-13T21:19:40Z"), queue: queue),
                AgentContact(
                    contactId: "44444444-4444-4444-4444-444444444444",
                    initialContactId: "22222222-2222-2222-2222-222222222222", channel: .chat,
                    initiationMethod: "TRANSFER", state: .ended, stateStartTimestamp: Self.at("2019-08-13T21:18:02Z"),
                    connectedToAgentTimestamp: Self.at("2019-08-13T21:10:30Z"),
                    queueTimestamp: Self.at("2019-08-13T21:10:02Z"), queue: queue),
            ])
        let group = "\(AgentEventSamples.instance)/agent-group"
        #expect(
            current.configuration?.hierarchyGroups
                == AgentHierarchyGroups(
                    level1: ResourceReference(arn: "\(group)/level1-ARN", name: "North America"),
                    level2: ResourceReference(arn: "\(group)/level2-ARN", name: "Seattle"),
                    level3: ResourceReference(arn: "\(group)/level3-ARN", name: "Team A")))
        #expect(
            current.configuration?.hierarchyGroups?.levels.compactMap { $0?.name } == [
                "North America", "Seattle", "Team A",
            ])
        #expect(current.configuration?.routingProfile?.defaultOutboundQueue?.name == "OutboundQueue")
        #expect(event.previousSnapshot?.configuration == nil)
        #expect(event.previousSnapshot?.contacts.map(\.state) == [.connecting])
        #expect(AgentActivity(status: current.status?.type, contacts: current.contacts) == .onContact)
    }

    @Test(
        "derives a missing Type from the status name",
        arguments: [
            (#""Name":"Available""#, AgentStatus.Kind.routable), (#""Name":"Offline""#, .offline),
            (#""Name":"Lunch""#, .custom), (#""Name":"Training""#, .custom),
            // Names compare exactly, as Connect spells its built-in statuses.
            (#""Name":"available""#, .custom), (#""Name":null"#, .custom),
        ])
    func derivation(name: String, expected: AgentStatus.Kind) throws {
        let json = AgentEventSamples.customStatus.replacingOccurrences(of: #""Name":"Break""#, with: name)
        #expect(try decode(json).currentSnapshot?.status?.type == expected)
    }

    @Test("a status with only ARN and StartTimestamp decodes as CUSTOM, keeping the ARN")
    func arnOnlyStatus() throws {
        let json = AgentEventSamples.customStatus.replacingOccurrences(of: #""Name":"Break","#, with: "")
        let status = try #require(try decode(json).currentSnapshot?.status)
        #expect(
            status
                == AgentStatus(
                    name: nil, type: .custom, startTimestamp: Self.at("2019-08-13T21:15:00.250Z"),
                    arn: "\(AgentEventSamples.instance)/agent-state/break-ARN"))
    }

    @Test(
        "a Type on the wire wins over the name; null or empty Type is derived",
        arguments: [
            (#""Type":"ROUTABLE""#, AgentStatus.Kind.routable), (#""Type":"OFFLINE""#, .offline),
            (#""Type":null"#, .custom), (#""Type":"""#, .custom),
        ])
    func wireType(type: String, expected: AgentStatus.Kind) throws {
        let json = AgentEventSamples.customStatus.replacingOccurrences(
            of: #""Name":"Break","#, with: #""Name":"Break",\#(type),"#)
        #expect(try decode(json).currentSnapshot?.status?.type == expected)
    }

    @Test("re-encodes a published sample with the derived Type and the new members, and decodes it back")
    func roundTrip() throws {
        for (name, json) in AgentEventSamples.all {
            var original = try decode(json)
            original.rawJSON = nil
            let encoded = original.jsonData()
            var decoded = try AgentEvent(jsonData: encoded)
            decoded.rawJSON = nil
            #expect(decoded == original, "\(name)")
        }
        let encoded = String(decoding: try decode(AgentEventSamples.onContacts).jsonData(), as: UTF8.self)
        #expect(encoded.contains(#""Type":"ROUTABLE""#))
        #expect(encoded.contains(#""Level3":{"ARN":"#))
        let next = String(decoding: try decode(AgentEventSamples.availableWithNextStatus).jsonData(), as: UTF8.self)
        #expect(
            next.contains(#""NextAgentStatus":{"ARN":"example-ARN2","EnqueuedTimestamp":"2019-08-13T20:58:00.004Z""#))
    }

    @Test(
        "still rejects what is truly unusable, naming the path",
        arguments: [
            (#""AgentARN":"arn"#, #""AgentARN":null,"Ignored":"arn"#, "AgentARN", "is required but is missing or null"),
            (#""EventType":"STATE_CHANGE""#, #""EventType":"""#, "EventType", "must not be empty"),
            (
                #""Name":"Break""#, #""Name":["Break"]"#, "CurrentAgentSnapshot.AgentStatus.Name",
                "expected a string, found an array"
            ),
            (
                #""Name":"Break","#, #""Name":"Break","Type":5,"#, "CurrentAgentSnapshot.AgentStatus.Type",
                "expected a string, found a number 5"
            ),
            (
                #""StartTimestamp":"2019-08-13T21:15:00.250Z""#, #""StartTimestamp":"13/08/2019""#,
                "CurrentAgentSnapshot.AgentStatus.StartTimestamp",
                #"expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z" or "2026-11-20T09:15:02.123Z", got "13/08/2019""#
            ),
            (
                #""AgentHierarchyGroups":null"#, #""AgentHierarchyGroups":{"Level1":"North America"}"#,
                "CurrentAgentSnapshot.Configuration.AgentHierarchyGroups.Level1", "expected an object, found a string"
            ),
        ])
    func unusable(target: String, replacement: String, path: String, reason: String) throws {
        let data = Fixtures.replacing(target, with: replacement, in: AgentEventSamples.customStatus)
        let error = try #require(throws: JSONDecodingError.self) { try AgentEvent(jsonData: data) }
        #expect(error.message == "AgentEvent")
        #expect(error.path == path)
        #expect(error.reason.hasPrefix(reason))
    }

    @Test("a next status with a broken timestamp names its path")
    func nextStatusError() throws {
        let data = Fixtures.replacing(
            #""EnqueuedTimestamp":"2019-08-13T20:58:00.004Z""#, with: #""EnqueuedTimestamp":17"#,
            in: AgentEventSamples.availableWithNextStatus)
        let error = try #require(throws: JSONDecodingError.self) { try AgentEvent(jsonData: data) }
        #expect(error.path == "CurrentAgentSnapshot.NextAgentStatus.EnqueuedTimestamp")
    }
}
