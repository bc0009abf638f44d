import Foundation
import Primitives
import Testing

@testable import ContactCenter

@Suite("ContactTraceRecord")
struct ContactTraceRecordTests {
    @Test("decodes a realistic record and keeps the raw bytes")
    func decodesRealisticRecord() throws {
        let data = Data(Fixtures.ctrJSON.utf8)
        let record = try ContactTraceRecord(jsonData: data)
        #expect(record.contactId == "5ca32fbd-8f92-46af-92a5-6b0f970f0efe")
        #expect(record.initialContactId == nil)
        #expect(record.channel == .voice)
        #expect(record.initiationMethod == "INBOUND")
        #expect(record.initiationTimestamp == UTCTimestamp(iso8601: "2026-11-20T09:15:01Z"))
        #expect(record.connectedToSystemTimestamp == UTCTimestamp(iso8601: "2026-11-20T09:15:02Z"))
        #expect(record.disconnectTimestamp == UTCTimestamp(iso8601: "2026-11-20T09:19:15Z"))
        #expect(record.disconnectReason == "CUSTOMER_DISCONNECT")
        #expect(record.lastUpdateTimestamp == UTCTimestamp(iso8601: "2026-11-20T09:20:41Z"))
        #expect(record.customerEndpoint == .init(address: "+81312345678", type: "TELEPHONE_NUMBER"))
        #expect(record.systemEndpoint?.address == "+81300000000")
        #expect(
            record.queue
                == .init(
                    arn: Fixtures.queueTokyo, name: "Tokyo Reservations",
                    enqueueTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:08Z"),
                    dequeueTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:20Z"), duration: 12))
        #expect(
            record.agent
                == .init(
                    arn: Fixtures.agentHanako, username: "hanako.sato",
                    connectedToAgentTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:15:20.250Z"),
                    agentInteractionDuration: 220,
                    afterContactWorkStartTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:19:15Z"),
                    afterContactWorkEndTimestamp: UTCTimestamp(iso8601: "2026-11-20T09:19:40Z"),
                    afterContactWorkDuration: 25, customerHoldDuration: 15, numberOfHolds: 1, longestHoldDuration: 15,
                    routingProfile: ResourceReference(arn: Fixtures.profile, name: "Restaurants Tokyo")))
        #expect(record.rawJSON == data)
        #expect(record.storeId == "tokyo-shibuya-001")
        #expect(record.isAnswered)
        #expect(!record.isAbandoned)
        #expect(record.queueDurationSeconds == 12)
        #expect(record.handleTimeSeconds == 220 + 15 + 25)
    }

    @Test("keeps unknown members in the raw bytes, byte for byte")
    func keepsUnknownFields() throws {
        let record = try ContactTraceRecord(jsonData: Data(Fixtures.ctrJSON.utf8))
        let raw = try #require(record.rawJSON)
        let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        let future = try #require(object["FutureField"] as? [String: Any])
        #expect((future["Nested"] as? [Any])?.count == 3)
        #expect(object["QualityMetrics"] == nil && object["Tags"] != nil)
    }

    @Test("stringifies non-string attributes and drops null ones")
    func attributes() throws {
        let record = try ContactTraceRecord(jsonData: Data(Fixtures.ctrJSON.utf8))
        #expect(
            record.attributes == [
                "storeId": "tokyo-shibuya-001", "storeName": "寿司 渋谷", "intent": "reservation", "partySize": "4",
                "vip": "true",
            ])
    }

    @Test("accepts a minimal record: nulls, absent members, no agent")
    func minimal() throws {
        let json = #"""
            {"ContactId":"c-1","Agent":null,"Queue":{"ARN":"q","EnqueueTimestamp":"2026-11-20T09:00:00.5Z",
             "DequeueTimestamp":null,"Duration":30,"Name":null},"Attributes":null,"Channel":"CHAT",
             "InitiationTimestamp":"2026-11-20T08:59:50Z","LastUpdateTimestamp":"2026-11-20T09:01:00Z"}
            """#
        let record = try ContactTraceRecord(jsonData: Data(json.utf8))
        #expect(record.agent == nil)
        #expect(record.attributes.isEmpty)
        #expect(record.storeId == nil)
        #expect(record.channel == .chat)
        #expect(
            record.queue?.enqueueTimestamp?.millisecondsSince1970
                == UTCTimestamp(iso8601: "2026-11-20T09:00:00.500Z")?.millisecondsSince1970)
        // Queued and never answered, but without DisconnectReason nobody knows the customer hung
        // up: not an abandon by Connect's definition.
        #expect(!record.isAbandoned)
        #expect(!record.isAnswered)
        #expect(record.handleTimeSeconds == nil)
    }

    @Test(
        "falls back for the version: LastUpdateTimestamp, else DisconnectTimestamp, else InitiationTimestamp",
        arguments: [
            (
                #"{"ContactId":"c","InitiationTimestamp":"2026-11-20T09:00:00Z","DisconnectTimestamp":"2026-11-20T09:05:00Z","LastUpdateTimestamp":"2026-11-20T09:06:00Z"}"#,
                "2026-11-20T09:06:00Z"
            ),
            (
                #"{"ContactId":"c","InitiationTimestamp":"2026-11-20T09:00:00Z","DisconnectTimestamp":"2026-11-20T09:05:00Z"}"#,
                "2026-11-20T09:05:00Z"
            ),
            (
                #"{"ContactId":"c","InitiationTimestamp":"2026-11-20T09:00:00Z","LastUpdateTimestamp":null}"#,
                "2026-11-20T09:00:00Z"
            ),
        ])
    func versionFallback(json: String, expected: String) throws {
        #expect(
            try ContactTraceRecord(jsonData: Data(json.utf8)).lastUpdateTimestamp == UTCTimestamp(iso8601: expected))
    }

    @Test(
        "names the field path and the problem",
        arguments: [
            (
                #""ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe""#, #""ContactId":null"#, "ContactId",
                "is required but is missing or null"
            ),
            (
                #""ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe""#, #""ContactId":"""#, "ContactId",
                "must not be empty"
            ),
            (
                #""ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe""#, #""ContactId":42"#, "ContactId",
                "expected a string, found a number 42"
            ),
            (
                #""ConnectedToAgentTimestamp":"2026-11-20T09:15:20.250Z""#,
                #""ConnectedToAgentTimestamp":"20/11/2026 09:15""#,
                "Agent.ConnectedToAgentTimestamp",
                #"expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z" or "2026-11-20T09:15:02.123Z", got "20/11/2026 09:15""#
            ),
            (
                #""AgentInteractionDuration":220"#, #""AgentInteractionDuration":"220""#,
                "Agent.AgentInteractionDuration",
                #"expected a whole number of seconds (a JSON number), found a string "220""#
            ),
            (
                #""Duration":12"#, #""Duration":12.5"#, "Queue.Duration",
                "expected a non-negative whole number of seconds, got 12.5"
            ),
            (
                #""Duration":12"#, #""Duration":-3"#, "Queue.Duration",
                "expected a non-negative whole number of seconds, got -3"
            ),
            (#""Queue":{"#, #""Queue":[],"Ignored":{"#, "Queue", "expected an object, found an array"),
            (
                #""Attributes":{"#, #""Attributes":"storeId","Ignored":{"#, "Attributes",
                #"expected an object, found a string "storeId""#
            ),
            (#""Name":"Tokyo Reservations""#, #""Name":true"#, "Queue.Name", "expected a string, found a boolean true"),
        ])
    func pathErrors(target: String, replacement: String, path: String, reason: String) {
        let data = Fixtures.replacing(target, with: replacement, in: Fixtures.ctrJSON)
        #expect(throws: JSONDecodingError(message: "ContactTraceRecord", path: path, reason: reason)) {
            try ContactTraceRecord(jsonData: data)
        }
        // The ingest's entry (bytes parsed where they are) refuses with the same error.
        #expect(throws: JSONDecodingError(message: "ContactTraceRecord", path: path, reason: reason)) {
            try ContactTraceRecord(jsonBytes: Array(data), keepingRaw: .jsonbOrder)
        }
    }

    @Test("accepts integral durations written as 12.0, as JSON allows")
    func integralDoubles() throws {
        let data = Fixtures.replacing(#""Duration":12"#, with: #""Duration":1.2e1"#, in: Fixtures.ctrJSON)
        #expect(try ContactTraceRecord(jsonData: data).queue?.duration == 12)
    }

    @Test("rejects a record without any timestamp to version it")
    func noVersion() {
        #expect(
            throws: JSONDecodingError(
                message: "ContactTraceRecord", path: "LastUpdateTimestamp",
                reason:
                    "is missing, and so are DisconnectTimestamp and InitiationTimestamp; the record has no version for the upsert guard"
            )
        ) { try ContactTraceRecord(jsonData: Data(#"{"ContactId":"c"}"#.utf8)) }
    }

    @Test("rejects malformed JSON and non-objects with path $")
    func malformed() throws {
        let error = try #require(throws: JSONDecodingError.self) {
            try ContactTraceRecord(jsonData: Data("[1]".utf8))
        }
        #expect(error.path == "$")
        #expect(error.description == "ContactTraceRecord at $: expected a JSON object at the top level, found an array")
        let truncated = try #require(throws: JSONDecodingError.self) {
            try ContactTraceRecord(jsonData: Data(Fixtures.ctrJSON.utf8.prefix(500)))
        }
        #expect(truncated.path == "$")
        let fromBytes = try #require(throws: JSONDecodingError.self) {
            try ContactTraceRecord(jsonBytes: Array(Fixtures.ctrJSON.utf8.prefix(500)), keepingRaw: .jsonbOrder)
        }
        #expect(fromBytes == truncated, "the same error from bytes parsed where they are")
    }

    @Test("round-trips through jsonData() with the shape of a real record")
    func roundTrip() throws {
        var original = try ContactTraceRecord(jsonData: Data(Fixtures.ctrJSON.utf8))
        original.rawJSON = nil
        let encoded = original.jsonData()
        #expect((2000...4096).contains(encoded.count))
        var decoded = try ContactTraceRecord(jsonData: encoded)
        #expect(decoded.rawJSON == encoded)
        decoded.rawJSON = nil
        #expect(decoded == original)

        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["AWSAccountId"] as? String == "123456789012")
        #expect(object["AWSContactTraceRecordFormatVersion"] as? String == "2017-03-10")
        #expect(object["InstanceARN"] as? String == Fixtures.instance)
        #expect((object["MediaStreams"] as? [Any])?.count == 1)
        #expect(object["Recording"] is [String: Any])
    }

    @Test("round-trips a record without agent or queue")
    func roundTripUnanswered() throws {
        let original = ContactTraceRecord(
            contactId: "c-2", channel: .voice, initiationTimestamp: Fixtures.at(0),
            disconnectTimestamp: Fixtures.at(30), lastUpdateTimestamp: Fixtures.at(31),
            attributes: ["storeId": "osaka-001", "quote": "a\"b"])
        var decoded = try ContactTraceRecord(jsonData: original.jsonData())
        decoded.rawJSON = nil
        // The encoder writes `AgentConnectionAttempts` as 0 without an agent (1 with one).
        var expected = original
        expected.agentConnectionAttempts = 0
        #expect(decoded == expected)
    }
}
