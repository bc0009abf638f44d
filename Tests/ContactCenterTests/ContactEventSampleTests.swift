import Foundation
import Primitives
import Testing

@testable import ContactCenter

/// The contact event shapes AWS publishes (see ``ContactEventSamples``), decoded field by field.
@Suite("ContactEvent published shapes")
struct ContactEventSampleTests {
    private func decode(_ json: String) throws -> ContactEvent {
        try ContactEvent(jsonData: Data(json.utf8))
    }

    private static func at(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }

    private static let instance = "arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012"
    private static let queue = "\(instance)/queue/12345678-1234-1234-1234-123456789012"
    private static let agent = "\(instance)/agent/12345678-1234-1234-1234-123456789012"

    @Test("decodes every published sample, keeping its bytes", arguments: ContactEventSamples.all.map(\.name))
    func decodesEverySample(name: String) throws {
        let json = try #require(ContactEventSamples.all.first { $0.name == name }).json
        let event = try decode(json)
        #expect(event.contactId == ContactEventSamples.contactId)
        #expect(event.channel == .voice || event.channel == .chat)
        #expect(!event.id.isEmpty)
        #expect(event.rawJSON == Data(json.utf8))
    }

    @Test("a bare camelCase detail: derived id and time, every member read")
    func bareDetail() throws {
        let event = try decode(ContactEventSamples.connectedToAgentBare)
        let connected = Self.at("2021-08-04T17:29:09Z")
        #expect(event.eventType == .connectedToAgent)
        #expect(event.time == connected)
        #expect(event.id == "11111111-1111-1111-1111-111111111111/CONNECTED_TO_AGENT/2021-08-04T17:29:09.000Z")
        #expect(
            event.id
                == ContactEvent.derivedId(contactId: event.contactId, eventType: .connectedToAgent, time: connected))
        #expect(event.version == nil && event.account == nil && event.region == nil && event.resources.isEmpty)
        #expect(event.channel == .voice)
        #expect(event.instanceArn == ContactEventSamples.instance)
        #expect(event.initiationMethod == "INBOUND")
        #expect(event.initiationTimestamp == Self.at("2021-08-04T17:17:53Z"))
        #expect(
            event.queueInfo
                == .init(
                    queueArn: "\(ContactEventSamples.instance)/queue/12345678-1234-1234-1234-123456789012",
                    queueType: "type", enqueueTimestamp: Self.at("2021-08-04T17:29:04Z")))
        #expect(
            event.agentInfo
                == .init(
                    agentArn: "\(ContactEventSamples.instance)/agent/12345678-1234-1234-1234-123456789012",
                    connectedToAgentTimestamp: connected))
    }

    @Test("a re-delivered bare detail gets the same id, so the ingest dedupes it")
    func bareDetailIdIsDeterministic() throws {
        let first = try decode(ContactEventSamples.connectedToAgentBare)
        // Same event, members in another order and spaced differently: same id.
        let reordered = #"""
            { "eventType" : "CONNECTED_TO_AGENT", "contactId" : "11111111-1111-1111-1111-111111111111",
              "agentInfo" : { "connectedToAgentTimestamp" : "2021-08-04T17:29:09Z" } }
            """#
        #expect(try decode(reordered).id == first.id)
        // Another step of the same contact: another id.
        let queued = ContactEventSamples.connectedToAgentBare.replacingOccurrences(
            of: #""eventType":"CONNECTED_TO_AGENT""#, with: #""eventType":"QUEUED""#)
        let queuedEvent = try decode(queued)
        #expect(queuedEvent.time == Self.at("2021-08-04T17:29:04Z"))
        #expect(queuedEvent.id == "11111111-1111-1111-1111-111111111111/QUEUED/2021-08-04T17:29:04.000Z")
    }

    @Test("the disconnected sample: envelope, mixed-case detail, channel Voice read as VOICE")
    func disconnectedMixedCase() throws {
        let event = try decode(ContactEventSamples.disconnectedMixedCase)
        #expect(event.id == "abcabcab-abca-abca-abca-abcabcabcabc")
        #expect(event.time == Self.at("2021-08-04T17:43:48Z"))
        #expect(event.version == "0")
        #expect(event.account == "111122223333")
        #expect(event.region == "us-west-1")
        #expect(event.resources == ["arn:aws:...", "contactArn", "instanceArn"])
        #expect(event.eventType == .disconnected)
        #expect(event.initialContactId == ContactEventSamples.initialContactId)
        #expect(event.previousContactId == ContactEventSamples.initialContactId)
        #expect(event.channel == .voice)
        #expect(event.initiationMethod == "OUTBOUND")
        #expect(event.initiationTimestamp == Self.at("2021-08-04T17:17:53Z"))
        #expect(event.connectedToSystemTimestamp == Self.at("2021-08-04T17:17:55Z"))
        #expect(event.disconnectTimestamp == Self.at("2021-08-04T17:18:37Z"))
        #expect(
            event.queueInfo
                == .init(queueArn: "arn", queueType: "type", enqueueTimestamp: Self.at("2021-08-04T17:29:04Z")))
        #expect(event.agentInfo == .init(agentArn: "arn", connectedToAgentTimestamp: Self.at("2021-08-04T17:29:09Z")))
    }

    @Test("the earlier sample: instanceARN, AgentInfo.AgentArn, a queue without timestamp")
    func earlierSample() throws {
        let event = try decode(ContactEventSamples.connectedToAgentEarlier)
        #expect(event.eventType == .connectedToAgent)
        #expect(event.time == Self.at("2021-05-01T18:43:48Z"))
        #expect(event.instanceArn == Self.instance)
        #expect(event.queueInfo == .init(queueArn: "arn", queueType: "type", enqueueTimestamp: nil))
        #expect(event.agentInfo == .init(agentArn: "arn", connectedToAgentTimestamp: nil))
        #expect(event.initiationTimestamp == nil)
    }

    @Test("a PascalCase QUEUED detail")
    func queuedPascalCase() throws {
        let event = try decode(ContactEventSamples.queuedPascalCase)
        #expect(event.id == "6f1c2a3b-0000-4000-8000-000000000001")
        #expect(event.time == Self.at("2021-08-04T17:29:04Z"))
        #expect(event.eventType == .queued)
        #expect(event.contactId == ContactEventSamples.contactId)
        #expect(event.initialContactId == ContactEventSamples.initialContactId)
        #expect(event.previousContactId == ContactEventSamples.initialContactId)
        #expect(event.instanceArn == Self.instance)
        #expect(event.channel == .voice)
        #expect(event.initiationMethod == "TRANSFER")
        #expect(event.initiationTimestamp == Self.at("2021-08-04T17:28:51Z"))
        #expect(event.connectedToSystemTimestamp == Self.at("2021-08-04T17:28:51Z"))
        #expect(
            event.queueInfo
                == .init(queueArn: Self.queue, queueType: "STANDARD", enqueueTimestamp: Self.at("2021-08-04T17:29:04Z"))
        )
        #expect(event.agentInfo == nil)
        #expect(event.resources.count == 2)
    }

    @Test("a PascalCase DISCONNECTED detail with AgentInfo")
    func disconnectedPascalCase() throws {
        let event = try decode(ContactEventSamples.disconnectedPascalCase)
        #expect(event.eventType == .disconnected)
        #expect(event.time == Self.at("2021-08-04T17:35:12Z"))
        #expect(event.disconnectTimestamp == Self.at("2021-08-04T17:35:11Z"))
        #expect(
            event.agentInfo == .init(agentArn: Self.agent, connectedToAgentTimestamp: Self.at("2021-08-04T17:29:09Z")))
        #expect(event.queueInfo?.enqueueTimestamp == Self.at("2021-08-04T17:29:04Z"))
        #expect(event.resources.isEmpty)
    }

    @Test("a COMPLETED camelCase detail with after-contact work members")
    func completed() throws {
        let event = try decode(ContactEventSamples.completedCamelCase)
        #expect(event.eventType == .completed)
        #expect(event.eventType.rank == 5)
        #expect(event.channel == .chat)
        #expect(event.initiationMethod == "API")
        #expect(event.agentInfo?.connectedToAgentTimestamp == Self.at("2021-08-04T17:20:09Z"))
    }

    @Test("PascalCase and camelCase spellings of one event decode to the same value")
    func casesAgree() throws {
        let pascal = try decode(ContactEventSamples.disconnectedPascalCase)
        let camel = ContactEventSamples.disconnectedPascalCase
            .replacingOccurrences(of: #""EventType""#, with: #""eventType""#)
            .replacingOccurrences(of: #""ContactId""#, with: #""contactId""#)
            .replacingOccurrences(of: #""InitialContactId""#, with: #""initialContactId""#)
            .replacingOccurrences(of: #""PreviousContactId""#, with: #""previousContactId""#)
            .replacingOccurrences(of: #""InstanceArn""#, with: #""instanceArn""#)
            .replacingOccurrences(of: #""Channel""#, with: #""channel""#)
            .replacingOccurrences(of: #""InitiationMethod""#, with: #""initiationMethod""#)
            .replacingOccurrences(of: #""InitiationTimestamp""#, with: #""initiationTimestamp""#)
            .replacingOccurrences(of: #""DisconnectTimestamp""#, with: #""disconnectTimestamp""#)
            .replacingOccurrences(of: #""QueueInfo""#, with: #""queueInfo""#)
            .replacingOccurrences(of: #""QueueArn""#, with: #""queueArn""#)
            .replacingOccurrences(of: #""QueueType""#, with: #""queueType""#)
            .replacingOccurrences(of: #""EnqueueTimestamp""#, with: #""enqueueTimestamp""#)
            .replacingOccurrences(of: #""AgentInfo""#, with: #""agentInfo""#)
            .replacingOccurrences(of: #""AgentArn""#, with: #""agentArn""#)
            .replacingOccurrences(of: #""ConnectedToAgentTimestamp""#, with: #""connectedToAgentTimestamp""#)
        #expect(!camel.contains(#""EventType""#))
        var camelEvent = try decode(camel)
        var pascalEvent = pascal
        camelEvent.rawJSON = nil
        pascalEvent.rawJSON = nil
        #expect(camelEvent == pascalEvent)
    }

    @Test(
        "a bare detail is dated by the step it reports, else by its latest timestamp",
        arguments: [
            ("INITIATED", "2021-08-04T17:17:53Z"), ("QUEUED", "2021-08-04T17:29:04Z"),
            ("CONNECTED_TO_AGENT", "2021-08-04T17:29:09Z"),
            // No disconnectTimestamp in this detail: the latest timestamp it carries.
            ("DISCONNECTED", "2021-08-04T17:29:09Z"), ("CONTACT_DATA_UPDATED", "2021-08-04T17:29:09Z"),
            ("COMPLETED", "2021-08-04T17:29:09Z"),
        ])
    func derivedTime(eventType: String, expected: String) throws {
        let json = ContactEventSamples.connectedToAgentBare.replacingOccurrences(
            of: #""eventType":"CONNECTED_TO_AGENT""#, with: #""eventType":"\#(eventType)""#)
        let event = try decode(json)
        #expect(event.time == Self.at(expected))
        #expect(event.id == "\(ContactEventSamples.contactId)/\(eventType)/\(Self.at(expected).iso8601Milliseconds)")
    }

    @Test("an envelope without id and time takes the derived ones")
    func envelopeWithoutIdAndTime() throws {
        let json = ContactEventSamples.queuedPascalCase
            .replacingOccurrences(of: #""id":"6f1c2a3b-0000-4000-8000-000000000001","#, with: "")
            .replacingOccurrences(of: #""time":"2021-08-04T17:29:04Z","#, with: "")
        let event = try decode(json)
        #expect(event.time == Self.at("2021-08-04T17:29:04Z"))
        #expect(event.id == "\(ContactEventSamples.contactId)/QUEUED/2021-08-04T17:29:04.000Z")
        #expect(event.account == "123456789012")
    }

    @Test("re-encodes a PascalCase or bare sample as the camelCase envelope, and decodes it back")
    func roundTrip() throws {
        for (name, json) in ContactEventSamples.all {
            var original = try decode(json)
            original.rawJSON = nil
            var decoded = try ContactEvent(jsonData: original.jsonData())
            decoded.rawJSON = nil
            // The encoder fills an empty envelope from the ARNs; compare what the sample carried.
            decoded.resources = original.resources
            decoded.account = original.account
            decoded.region = original.region
            decoded.version = original.version
            decoded.instanceArn = original.instanceArn
            #expect(decoded == original, "\(name)")
        }
    }

    @Test(
        "still dead-letters what is truly unusable, naming the path as the message spells it",
        arguments: [
            (
                ContactEventSamples.queuedPascalCase, #""ContactId":"11111111-1111-1111-1111-111111111111","#, "",
                "detail.contactId", "is required but is missing or null (and so is ContactId)"
            ),
            (
                ContactEventSamples.queuedPascalCase, #""ContactId":"11111111-1111-1111-1111-111111111111""#,
                #""ContactId":"""#, "detail.ContactId", "must not be empty"
            ),
            (
                ContactEventSamples.queuedPascalCase, #""EventType":"QUEUED""#, #""EventType":7"#,
                "detail.EventType", "expected a string, found a number 7"
            ),
            (
                ContactEventSamples.queuedPascalCase, #""EnqueueTimestamp":"2021-08-04T17:29:04.000Z""#,
                #""EnqueueTimestamp":1628098144"#, "detail.QueueInfo.EnqueueTimestamp",
                #"expected an ISO 8601 UTC timestamp string such as "2026-11-20T09:15:02Z", found a number 1628098144"#
            ),
            (
                ContactEventSamples.queuedPascalCase, #""QueueInfo":{"#, #""QueueInfo":"queue","Ignored":{"#,
                "detail.QueueInfo", #"expected an object, found a string "queue""#
            ),
            (
                ContactEventSamples.disconnectedMixedCase, #""AgentArn":"arn""#, #""AgentArn":["arn"]"#,
                "detail.AgentInfo.AgentArn", "expected a string, found an array"
            ),
            (
                ContactEventSamples.connectedToAgentBare, #""contactId":"11111111-1111-1111-1111-111111111111","#, "",
                "contactId", "is required but is missing or null (and so is ContactId)"
            ),
            (
                ContactEventSamples.connectedToAgentBare, #""initiationTimestamp":"2021-08-04T17:17:53.000Z""#,
                #""initiationTimestamp":"yesterday""#, "initiationTimestamp",
                #"expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z" or "2026-11-20T09:15:02.123Z", got "yesterday""#
            ),
            (
                ContactEventSamples.queuedPascalCase, #""detail":{"#, #""detail":[],"Ignored":{"#, "detail",
                "expected an object, found an array"
            ),
        ])
    func unusable(json: String, target: String, replacement: String, path: String, reason: String) {
        let data = Fixtures.replacing(target, with: replacement, in: json)
        #expect(throws: JSONDecodingError(message: "ContactEvent", path: path, reason: reason)) {
            try ContactEvent(jsonData: data)
        }
    }

    @Test("a bare detail with no timestamp at all cannot be dated")
    func undatable() {
        let json = #"{"eventType":"CONTACT_DATA_UPDATED","contactId":"c-1","channel":"VOICE"}"#
        #expect(
            throws: JSONDecodingError(
                message: "ContactEvent", path: "time",
                reason:
                    "is missing: the message is a bare detail without the EventBridge envelope, and the detail carries no timestamp to date the event (initiationTimestamp, connectedToSystemTimestamp, queueInfo.enqueueTimestamp, agentInfo.connectedToAgentTimestamp, disconnectTimestamp)"
            )
        ) { try ContactEvent(jsonData: Data(json.utf8)) }
    }

    @Test("an envelope without time whose detail carries no timestamp cannot be dated")
    func undatableEnvelope() {
        let json = #"{"id":"e-1","detail":{"EventType":"CONTACT_DATA_UPDATED","ContactId":"c-1"}}"#
        #expect(
            throws: JSONDecodingError(
                message: "ContactEvent", path: "time",
                reason:
                    "is missing or null, and the detail carries no timestamp to date the event (initiationTimestamp, connectedToSystemTimestamp, queueInfo.enqueueTimestamp, agentInfo.connectedToAgentTimestamp, disconnectTimestamp)"
            )
        ) { try ContactEvent(jsonData: Data(json.utf8)) }
    }

    @Test("the older data model's QueueInfo.ARN and AgentInfo.AgentARN are read too")
    func olderSpellings() throws {
        let json = #"""
            {"EventType":"CONNECTED_TO_AGENT","ContactId":"c-1","InstanceARN":"i",
             "QueueInfo":{"ARN":"q","QueueType":"STANDARD"},
             "AgentInfo":{"AgentARN":"a","ConnectedToAgentTimestamp":"2021-08-04T17:29:09.000Z"}}
            """#
        let event = try decode(json)
        #expect(event.queueInfo == .init(queueArn: "q", queueType: "STANDARD", enqueueTimestamp: nil))
        #expect(event.agentInfo == .init(agentArn: "a", connectedToAgentTimestamp: Self.at("2021-08-04T17:29:09Z")))
        #expect(event.instanceArn == "i")
        #expect(event.time == Self.at("2021-08-04T17:29:09Z"))
    }

    @Test("an object that is neither an envelope nor a contact event detail")
    func neitherShape() {
        #expect(
            throws: JSONDecodingError(
                message: "ContactEvent", path: "detail",
                reason:
                    "is required but is missing or null: the message has no EventBridge envelope (id, time, source, detail-type, detail) and is not a bare contact event detail either (no eventType or contactId, in camelCase or PascalCase)"
            )
        ) { try ContactEvent(jsonData: Data(#"{"AgentARN":"a","EventType":null}"#.utf8)) }
    }

    @Test("the disconnected sample exactly as printed (trailing comma) is malformed JSON, reported at $")
    func printedSampleWithTrailingComma() throws {
        let printed = ContactEventSamples.disconnectedMixedCase.replacingOccurrences(
            of: #""greetingEndTimestamp":"2021-08-04T17:29:22.000Z"}"#,
            with: #""greetingEndTimestamp":"2021-08-04T17:29:22.000Z",}"#)
        let error = try #require(throws: JSONDecodingError.self) { try decode(printed) }
        #expect(error.message == "ContactEvent")
        #expect(error.path == "$")
    }
}
