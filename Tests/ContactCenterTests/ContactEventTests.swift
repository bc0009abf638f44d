import Foundation
import Primitives
import Testing

@testable import ContactCenter

@Suite("ContactEvent")
struct ContactEventTests {
    @Test("decodes a realistic EventBridge contact event")
    func decodes() throws {
        let data = Data(Fixtures.contactEventJSON.utf8)
        let event = try ContactEvent(jsonData: data)
        #expect(event.id == "9a2b4c6d-0000-4000-8000-000000000001")
        #expect(event.time == UTCTimestamp(iso8601: "2026-11-20T09:15:08Z"))
        #expect(event.eventType == .queued)
        #expect(event.contactId == "5ca32fbd-8f92-46af-92a5-6b0f970f0efe")
        #expect(event.account == "123456789012")
        #expect(event.region == "ap-northeast-1")
        #expect(event.resources.count == 2)
        #expect(event.channel == .voice)
        #expect(event.instanceArn == Fixtures.instance)
        #expect(event.initiationTimestamp == UTCTimestamp(iso8601: "2026-11-20T09:15:01Z"))
        #expect(
            event.queueInfo
                == .init(
                    queueArn: Fixtures.queueTokyo, queueType: "STANDARD",
                    enqueueTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:08.120Z")))
        #expect(event.agentInfo == nil)
        #expect(event.rawJSON == data)
    }

    @Test(
        "orders the event types",
        arguments: [
            ("INITIATED", 0), ("CONNECTED_TO_SYSTEM", 1), ("QUEUED", 2), ("CONNECTED_TO_AGENT", 3),
            ("DISCONNECTED", 4), ("COMPLETED", 5), ("CONTACT_DATA_UPDATED", nil), ("SOMETHING_NEW", nil),
        ] as [(String, Int?)])
    func ranks(raw: String, rank: Int?) {
        let type = ContactEvent.EventType(rawValue: raw)
        #expect(type.rank == rank)
        #expect(type.rawValue == raw)
    }

    @Test(
        "names the field path and the problem",
        arguments: [
            (#""id":"9a2b4c6d-0000-4000-8000-000000000001""#, #""id":"""#, "id", "must not be empty"),
            (
                #""detail-type":"Amazon Connect Contact Event""#,
                #""detail-type":"EC2 Instance State-change Notification""#,
                "detail-type",
                #"expected "Amazon Connect Contact Event", got "EC2 Instance State-change Notification"; check the EventBridge rule that feeds the contact-events topic"#
            ),
            (
                #""time":"2026-11-20T09:15:08Z""#, #""time":"2026-11-20""#, "time",
                #"expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z" or "2026-11-20T09:15:02.123Z", got "2026-11-20""#
            ),
            (
                #""enqueueTimestamp":"2026-11-20T09:15:08.120Z""#, #""enqueueTimestamp":{}"#,
                "detail.queueInfo.enqueueTimestamp",
                #"expected an ISO 8601 UTC timestamp string such as "2026-11-20T09:15:02Z", found an object"#
            ),
            (
                #""eventType":"QUEUED","contactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","#, #""eventType":"QUEUED","#,
                "detail.contactId", "is required but is missing or null (and so is ContactId)"
            ),
            (#""resources":["#, #""resources":[1,"#, "resources[0]", "expected a string, found a number"),
        ])
    func pathErrors(target: String, replacement: String, path: String, reason: String) {
        let data = Fixtures.replacing(target, with: replacement, in: Fixtures.contactEventJSON)
        #expect(throws: JSONDecodingError(message: "ContactEvent", path: path, reason: reason)) {
            try ContactEvent(jsonData: data)
        }
    }

    @Test("rejects an envelope without detail")
    func missingDetail() {
        #expect(
            throws: JSONDecodingError(
                message: "ContactEvent", path: "detail", reason: "is required but is missing or null")
        ) {
            try ContactEvent(jsonData: Data(#"{"id":"x","time":"2026-11-20T09:15:08Z"}"#.utf8))
        }
    }

    @Test("round-trips through jsonData()")
    func roundTrip() throws {
        var original = try ContactEvent(jsonData: Data(Fixtures.contactEventJSON.utf8))
        original.rawJSON = nil
        let encoded = original.jsonData()
        var decoded = try ContactEvent(jsonData: encoded)
        #expect(decoded.rawJSON == encoded)
        decoded.rawJSON = nil
        #expect(decoded == original)

        let built = Fixtures.contactEvent(
            "e-1", contact: "c-1", .connectedToAgent, at: 20, queue: Fixtures.queueTokyo, enqueuedAt: 5,
            agent: Fixtures.agentHanako, connectedAt: 19.5)
        var rebuilt = try ContactEvent(jsonData: built.jsonData())
        rebuilt.rawJSON = nil
        #expect(rebuilt.agentInfo == built.agentInfo)
        #expect(rebuilt.queueInfo == built.queueInfo)
        #expect(rebuilt.account == "123456789012")
        #expect(rebuilt.region == "ap-northeast-1")
        #expect(rebuilt.instanceArn == Fixtures.instance)
        #expect(rebuilt.resources == [Fixtures.instance, "\(Fixtures.instance)/contact/c-1"])
        var expected = built
        expected.account = rebuilt.account
        expected.region = rebuilt.region
        expected.instanceArn = rebuilt.instanceArn
        expected.resources = rebuilt.resources
        #expect(rebuilt == expected)
    }
}
