import Foundation
import Primitives
import Testing

@testable import ContactCenter

@Suite("AgentEvent")
struct AgentEventTests {
    @Test("decodes a realistic STATE_CHANGE event")
    func decodes() throws {
        let data = Data(Fixtures.agentEventJSON.utf8)
        let event = try AgentEvent(jsonData: data)
        #expect(event.agentArn == Fixtures.agentHanako)
        #expect(event.eventId == "c0ffee00-0000-4000-8000-000000000001")
        #expect(event.eventTimestamp == UTCTimestamp(iso8601: "2026-11-20T09:15:20.312Z"))
        #expect(event.eventType == .stateChange)
        #expect(event.instanceArn == Fixtures.instance)
        #expect(event.version == "2017-10-01")
        #expect(event.rawJSON == data)
        let snapshot = try #require(event.currentSnapshot)
        #expect(
            snapshot.status
                == AgentStatus(
                    name: "Available", type: .routable, startTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:00:00Z"),
                    arn: "\(Fixtures.instance)/agent-state/s1"))
        #expect(snapshot.configuration?.firstName == "Hanako")
        #expect(
            snapshot.configuration?.routingProfile?.inboundQueues == [
                ResourceReference(arn: Fixtures.queueTokyo, name: "Tokyo Reservations")
            ])
        #expect(snapshot.configuration?.routingProfile?.defaultOutboundQueue?.name == "Tokyo Reservations")
        #expect(
            snapshot.contacts == [
                AgentContact(
                    contactId: "5ca32fbd-8f92-46af-92a5-6b0f970f0efe", initialContactId: nil, channel: .voice,
                    initiationMethod: "INBOUND", state: .connected,
                    stateStartTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:20.250Z"),
                    connectedToAgentTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:20.250Z"),
                    queueTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:08Z"),
                    queue: ResourceReference(arn: Fixtures.queueTokyo, name: "Tokyo Reservations"))
            ])
        #expect(event.previousSnapshot?.configuration == nil)
        #expect(event.previousSnapshot?.contacts == [])
    }

    @Test(
        "keeps unknown event types, status types and contact states",
        arguments: [
            ("STATE_CHANGE", AgentEvent.EventType.stateChange), ("HEART_BEAT", .heartBeat), ("LOGIN", .login),
            ("LOGOUT", .logout), ("AGENT_TELEPORTED", .other("AGENT_TELEPORTED")),
        ])
    func eventTypes(raw: String, type: AgentEvent.EventType) throws {
        var json = Fixtures.agentEventJSON.replacingOccurrences(
            of: #""EventType":"STATE_CHANGE""#, with: #""EventType":"\#(raw)""#)
        json = json.replacingOccurrences(of: #""State":"CONNECTED""#, with: #""State":"WHISPERING""#)
        json = json.replacingOccurrences(of: #""Type":"ROUTABLE"}"#, with: #""Type":"NEW_KIND"}"#)
        let event = try AgentEvent(jsonData: Data(json.utf8))
        #expect(event.eventType == type)
        #expect(event.eventType.rawValue == raw)
        #expect(event.currentSnapshot?.contacts.first?.state == .other("WHISPERING"))
        #expect(event.currentSnapshot?.status?.type == .other("NEW_KIND"))
    }

    @Test(
        "names the field path and the problem",
        arguments: [
            (
                #""EventId":"c0ffee00-0000-4000-8000-000000000001""#, #""EventId":null"#, "EventId",
                "is required but is missing or null"
            ),
            (
                #""EventTimestamp":"2026-11-20T09:15:20.312Z""#, #""EventTimestamp":1795166120312"#, "EventTimestamp",
                #"expected an ISO 8601 UTC timestamp string such as "2026-11-20T09:15:02Z", found a number 1795166120312"#
            ),
            (
                #""State":"CONNECTED""#, #""State":7"#, "CurrentAgentSnapshot.Contacts[0].State",
                "expected a string, found a number 7"
            ),
            (
                #""QueueTimestamp":"2026-11-20T09:15:08.000Z""#, #""QueueTimestamp":"later""#,
                "CurrentAgentSnapshot.Contacts[0].QueueTimestamp",
                #"expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z" or "2026-11-20T09:15:02.123Z", got "later""#
            ),
            (
                #""InboundQueues":["#, #""InboundQueues":["x","#,
                "CurrentAgentSnapshot.Configuration.RoutingProfile.InboundQueues[0]",
                "expected an object, found a string"
            ),
            (
                #""Type":"ROUTABLE"}"#, #""Type":true}"#, "CurrentAgentSnapshot.AgentStatus.Type",
                "expected a string, found a boolean true"
            ),
        ])
    func pathErrors(target: String, replacement: String, path: String, reason: String) {
        let data = Fixtures.replacing(target, with: replacement, in: Fixtures.agentEventJSON)
        #expect(throws: JSONDecodingError(message: "AgentEvent", path: path, reason: reason)) {
            try AgentEvent(jsonData: data)
        }
    }

    @Test("decodes a LOGOUT without snapshots")
    func logoutWithoutSnapshot() throws {
        let json =
            #"{"AgentARN":"a","EventId":"e","EventTimestamp":"2026-11-20T09:15:20Z","EventType":"LOGOUT","CurrentAgentSnapshot":null}"#
        let event = try AgentEvent(jsonData: Data(json.utf8))
        #expect(event.eventType == .logout)
        #expect(event.currentSnapshot == nil)
    }

    @Test("round-trips through jsonData()")
    func roundTrip() throws {
        var original = try AgentEvent(jsonData: Data(Fixtures.agentEventJSON.utf8))
        original.rawJSON = nil
        let encoded = original.jsonData()
        var decoded = try AgentEvent(jsonData: encoded)
        #expect(decoded.rawJSON == encoded)
        decoded.rawJSON = nil
        #expect(decoded == original)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""EventTimestamp":"2026-11-20T09:15:20.312Z""#))
        #expect(text.contains(#""StartTimestamp":"2026-11-20T09:00:00.000Z""#))
        #expect(text.contains(#""Concurrency":[{"#))

        let built = Fixtures.agentEvent(
            "e-1", at: 5, contacts: [Fixtures.deskContact("c-1", .connectedOnHold, since: 3)])
        var rebuilt = try AgentEvent(jsonData: built.jsonData())
        rebuilt.rawJSON = nil
        var expected = built
        expected.awsAccountId = "123456789012"
        expected.instanceArn = Fixtures.instance
        #expect(rebuilt == expected)
    }
}
