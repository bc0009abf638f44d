import ContactCenter
import Foundation
import Primitives
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

    @Test("no key, an empty key, a key of another type, another stream's message and malformed JSON are errors")
    func errors() throws {
        let missing = try #require(throws: JSONDecodingError.self) {
            try ConnectStream.contactRecords.key(of: Array(#"{"Channel":"VOICE"}"#.utf8))
        }
        #expect(missing.description.hasPrefix("ContactTraceRecord at ContactId"))
        let empty = try #require(throws: JSONDecodingError.self) {
            try ConnectStream.agentEvents.key(of: Array(#"{"AgentARN":""}"#.utf8))
        }
        #expect(empty.path == "AgentARN")
        #expect(throws: JSONDecodingError.self) {
            try ConnectStream.agentEvents.key(of: Array(Fixtures.ctrJSON.utf8))
        }
        let malformed = try #require(throws: JSONDecodingError.self) {
            try ConnectStream.contactEvents.key(of: Array(#"{"detail": {"contactId": "#.utf8))
        }
        #expect(malformed.path == "$")
        #expect(throws: JSONDecodingError.self) {
            try ConnectStream.contactRecords.key(of: Array("[1, 2]".utf8))
        }
        let number = try #require(throws: JSONDecodingError.self) {
            try ConnectStream.contactRecords.key(of: Array(#"{"ContactId": 42}"#.utf8))
        }
        #expect(number.path == "ContactId")
    }

    @Test("the key is read where it is: before or after nested values, escaped, in either spelling")
    func positions() throws {
        let nested = #"{"Agent": {"ContactId": "inner", "x": ["}", "\"{"]}, "Attributes": {}, "ContactId": "outer"}"#
        #expect(try ConnectStream.contactRecords.key(of: Array(nested.utf8)) == "outer")
        #expect(try ConnectStream.contactRecords.key(of: Array(#" {"ContactId" : "a\u0062c"}"#.utf8)) == "abc")
        let pascal = #"{"id": "1", "detail": {"ContactId": "p", "EventType": "QUEUED"}}"#
        #expect(try ConnectStream.contactEvents.key(of: Array(pascal.utf8)) == "p")
        let both = #"{"detail": {"ContactId": "p", "contactId": "c"}}"#
        #expect(try ConnectStream.contactEvents.key(of: Array(both.utf8)) == "c", "camelCase first, as the decoder")
        let nullFirst = #"{"detail": {"contactId": null, "ContactId": "p"}}"#
        #expect(try ConnectStream.contactEvents.key(of: Array(nullFirst.utf8)) == "p")
        #expect(try ConnectStream.contactEvents.key(of: Array(#"{"contactId": "bare"}"#.utf8)) == "bare")
    }

    @Test("a quote, an escaped quote or a backslash at any offset of the strings before the key")
    func stringsBeforeTheKey() throws {
        // The walk skips strings eight bytes at a time and jumps to the first quote or backslash
        // of a word: each of those at every offset 0…20 of a member's name and of its value.
        for offset in 0...20 {
            let padding = String(repeating: "x", count: offset)
            for inner in [#"\""#, #"\\"#, #"}{"#, ""] {
                let value = padding + inner + "y"
                let message = #"{"\#(padding)Name\#(inner)": "\#(value)", "ContactId": "c-\#(offset)"}"#
                #expect(
                    try ConnectStream.contactRecords.key(of: Array(message.utf8)) == "c-\(offset)",
                    "\(message)")
            }
            let key = #"{"ContactId": "\#(padding)\"q\\b\#(padding)"}"#
            #expect(
                try ConnectStream.contactRecords.key(of: Array(key.utf8)) == padding + "\"q\\b" + padding, "\(key)")
        }
    }

    @Test("a single object is told from concatenated ones and garbage, and keyed in the same walk")
    func singleObject() throws {
        func single(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { ConnectStream.contactRecords.keyOfSingleObject($0) } != nil
        }
        #expect(single(#"{"a": "}{", "b": [{"c": 1}]}"#))
        #expect(single(" {\"a\": 1}\n"))
        #expect(!single(#"{"a": 1}{"a": 2}"#))
        #expect(!single("{\"a\": 1}\n{\"a\": 2}\n"))
        #expect(!single(#"{"a": 1"#))
        #expect(!single("hello"))
        #expect(!single(""))
        func key(_ stream: ConnectStream, _ text: String) -> Result<String, JSONDecodingError>? {
            Array(text.utf8).withUnsafeBytes { stream.keyOfSingleObject($0) }
        }
        #expect(try key(.contactRecords, #"{"x": {"ContactId": "in"}, "ContactId": "c"}"#)?.get() == "c")
        #expect(try key(.agentEvents, #"{"AgentARN": "a", "Contacts": []}"#)?.get() == "a")
        #expect(try key(.contactEvents, #"{"id": "1", "detail": {"contactId": "e"}}"#)?.get() == "e")
        #expect(try key(.contactEvents, #"{"ContactId": "bare", "EventType": "QUEUED"}"#)?.get() == "bare")
        if case .failure(let error)? = key(.contactEvents, #"{"detail": "x"}"#) {
            #expect(error.path == "detail")
        } else {
            Issue.record("a detail that is not an object")
        }
        if case .failure(let error)? = key(.contactRecords, #"{"Channel": "VOICE"}"#) {
            #expect(error.description.hasPrefix("ContactTraceRecord at ContactId"))
        } else {
            Issue.record("no ContactId")
        }
        for (name, json) in ContactTraceRecordSamples.all {
            let record = try? ContactTraceRecord(jsonData: Data(json.utf8))
            #expect(try key(.contactRecords, json)?.get() == record?.contactId, "\(name)")
        }
        for (name, json) in ContactEventSamples.all {
            let event = try? ContactEvent(jsonData: Data(json.utf8))
            #expect(try key(.contactEvents, json)?.get() == event?.contactId, "\(name)")
        }
    }

    @Test("names are the receiver's paths and the default topics")
    func names() {
        #expect(ConnectStream.allCases.map(\.rawValue) == ["contact-records", "agent-events", "contact-events"])
        #expect(ConnectStream(rawValue: "agent-events") == .agentEvents)
    }
}
