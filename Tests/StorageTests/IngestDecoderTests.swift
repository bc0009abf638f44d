import ContactCenter
import Foundation
import Storage
import SwitchboardTesting
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

    @Test("the cutoff for bytes as received is the start of the UTC month before the current one")
    func receivedCutoff() {
        func at(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }
        #expect(IngestDecoder.receivedCutoff(now: at("2026-11-28T17:00:00Z")) == at("2026-10-01T00:00:00Z"))
        #expect(IngestDecoder.receivedCutoff(now: at("2026-01-15T09:30:00Z")) == at("2025-12-01T00:00:00Z"))
        #expect(IngestDecoder.receivedCutoff(now: at("2026-03-01T00:00:00Z")) == at("2026-02-01T00:00:00Z"))
        #expect(IngestDecoder.receivedCutoff(now: at("2028-02-29T23:59:59.999Z")) == at("2028-01-01T00:00:00Z"))
    }

    @Test("only rows before the cutoff keep their bytes as received; a refused row without them keeps its JSON")
    func receivedBeforeCutoff() throws {
        var fixtures = TrafficFixtures(seed: 7)
        let cutoff = UTCTimestamp(iso8601: "2026-10-01T00:00:00Z")!
        let old = UTCTimestamp(iso8601: "2026-09-30T23:59:59Z")!
        let recent = RawRetentionTests.contact(&fixtures, index: 1, at: cutoff)
        let early = RawRetentionTests.contact(&fixtures, index: 2, at: old)
        let oldAgent = RawRetentionTests.agentEvent(&fixtures, index: 3, at: old)
        let newAgent = RawRetentionTests.agentEvent(&fixtures, index: 4, at: cutoff)
        var oldEvent = fixtures.contactEvent(index: 5)
        oldEvent.time = old
        var newEvent = fixtures.contactEvent(index: 6)
        newEvent.time = cutoff
        // Whitespace the decoder's `jsonb`-order copy drops: the bytes as received differ from it.
        func spaced(_ data: Data) -> [UInt8] { Array(" ".utf8) + Array(data) }
        let records = [
            ("contact-records", spaced(recent.jsonData())), ("contact-records", spaced(early.jsonData())),
            ("agent-events", spaced(oldAgent.jsonData())), ("agent-events", spaced(newAgent.jsonData())),
            ("contact-events", spaced(oldEvent.jsonData())), ("contact-events", spaced(newEvent.jsonData())),
        ].enumerated().map { offset, item in
            SourceRecord(topic: item.0, partition: 0, offset: Int64(offset), key: nil, value: item.1)
        }

        var batch = IngestDecoder().decode(records, receivedBefore: cutoff)
        let received = Dictionary(
            uniqueKeysWithValues: batch.contactRecords.map { ($0.value.contactId, $0.received) })
        #expect(received[early.contactId] == .some(records[1].value))
        #expect(received[recent.contactId] == .some(nil))
        #expect(batch.agentEvents.map(\.received) == [records[2].value, nil])
        #expect(batch.contactEvents.map(\.received) == [records[4].value, nil])
        #expect(IngestDecoder().decode(records).contactRecords.allSatisfy { $0.received != nil }, "no cutoff: all kept")

        // A horizon past the cutoff (a month's turn between the worker's clock and the database's):
        // the recent contact is refused without its bytes as received, with its JSON in jsonb order.
        let refused = batch.refuseRows(before: UTCTimestamp(iso8601: "2026-11-01T00:00:00Z")!)
        #expect(refused == 6)
        let letters = Dictionary(uniqueKeysWithValues: batch.deadLetters.map { ($0.offset, $0.value) })
        #expect(letters[1] == .some(records[1].value), "kept: the bytes as received")
        let recentJSON = try #require(letters[0] ?? nil)
        #expect(recentJSON != records[0].value)
        let reparsed = try ContactTraceRecord(jsonBytes: recentJSON, keepingRaw: .asReceived)
        #expect(reparsed.contactId == recent.contactId)
        #expect(reparsed.lastUpdateTimestamp == recent.lastUpdateTimestamp)
    }
}
