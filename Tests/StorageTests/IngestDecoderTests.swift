import Foundation
import Storage
import Testing

@Suite("IngestDecoder: payloads its producer already refused, and where records came from")
struct IngestDecoderTests {
    @Test("a record marked rejected is dead-lettered with that reason and its origin, whatever it holds")
    func rejected() {
        let decoder = IngestDecoder()
        let valid =
            #"{"AgentARN":"arn:a","EventId":"e","EventTimestamp":"2026-11-20T01:02:03.000Z","EventType":"HEART_BEAT"}"#
        let record = SourceRecord(
            topic: "agent-events", partition: 0, offset: 7, key: nil, value: Array(valid.utf8),
            rejection: "\"data\" is not valid base64", origin: "firehose r1 record 3")
        let batch = decoder.decode([record])
        #expect(batch.agentEvents.isEmpty)
        #expect(batch.deadLetters.count == 1)
        #expect(batch.deadLetters.first?.reason.kind == "rejected")
        #expect(batch.deadLetters.first?.reason.message == "\"data\" is not valid base64 (from firehose r1 record 3)")
        #expect(batch.nextOffsets[record.partitionKey] == 8)
    }

    @Test("a record that fails to decode names its origin; without one the reason is unchanged")
    func origin() {
        let decoder = IngestDecoder()
        let bad = SourceRecord(
            topic: "contact-records", partition: 0, offset: 1, key: nil, value: Array("{}".utf8),
            origin: "firehose r2 record 0")
        guard case .failure(let reason) = decoder.decodeOne(bad) else {
            Issue.record("an empty object decoded")
            return
        }
        #expect(reason.kind == "invalid")
        #expect(reason.message.hasSuffix(" (from firehose r2 record 0)"))
        var plain = bad
        plain.origin = nil
        guard case .failure(let unchanged) = decoder.decodeOne(plain) else { return }
        #expect(!unchanged.message.contains("from firehose"))
    }
}
