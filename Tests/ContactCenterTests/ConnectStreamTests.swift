import ContactCenter
import Foundation
import Testing

@Suite("ConnectStream: the Kafka key of each stream's messages, without decoding them")
struct ConnectStreamTests {
    @Test("every documented sample yields the key its decoder reads")
    func samples() throws {
        for (name, json) in ContactTraceRecordSamples.all {
            let record = try ContactTraceRecord(jsonData: Data(json.utf8))
            #expect(try ConnectStream.contactRecords.key(of: Array(json.utf8)) == record.contactId, "\(name)")
        }
        for (name, json) in AgentEventSamples.all {
            let event = try AgentEvent(jsonData: Data(json.utf8))
            #expect(try ConnectStream.agentEvents.key(of: Array(json.utf8)) == event.agentArn, "\(name)")
        }
        for (name, json) in ContactEventSamples.all {
            let event = try ContactEvent(jsonData: Data(json.utf8))
            #expect(try ConnectStream.contactEvents.key(of: Array(json.utf8)) == event.contactId, "\(name)")
        }
    }

    @Test("no key, an empty key, another stream's message and malformed JSON are errors naming the field")
    func errors() throws {
        let missing = try #require(throws: ContactCenterDecodingError.self) {
            try ConnectStream.contactRecords.key(of: Array(#"{"Channel":"VOICE"}"#.utf8))
        }
        #expect(missing.description.hasPrefix("ContactTraceRecord at ContactId"))
        let empty = try #require(throws: ContactCenterDecodingError.self) {
            try ConnectStream.agentEvents.key(of: Array(#"{"AgentARN":""}"#.utf8))
        }
        #expect(empty.path == "AgentARN")
        #expect(throws: ContactCenterDecodingError.self) {
            try ConnectStream.agentEvents.key(of: Array(Fixtures.ctrJSON.utf8))
        }
        let malformed = try #require(throws: ContactCenterDecodingError.self) {
            try ConnectStream.contactEvents.key(of: Array(#"{"detail": {"contactId": "a""#.utf8))
        }
        #expect(malformed.path == "$")
        #expect(throws: ContactCenterDecodingError.self) {
            try ConnectStream.contactRecords.key(of: Array("[1, 2]".utf8))
        }
    }

    @Test("names are the receiver's paths and the default topics")
    func names() {
        #expect(ConnectStream.allCases.map(\.rawValue) == ["contact-records", "agent-events", "contact-events"])
        #expect(ConnectStream(rawValue: "agent-events") == .agentEvents)
    }
}
