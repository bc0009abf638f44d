import ContactCenter
import Storage
import SwitchboardTesting
import Testing

/// The records of the merge tests, of two partitions of each topic: versions of contacts that
/// arrive in order, late and twice; agent and contact events re-delivered; bad records.
private func mixedRecords() -> [SourceRecord] {
    var fixtures = TrafficFixtures(seed: 5)
    var records: [SourceRecord] = []
    var offsets: [String: Int64] = [:]
    var versions: [String: [UInt8]] = [:]
    func add(_ topic: String, _ partition: Int32, _ value: [UInt8]?) {
        let key = "\(topic)/\(partition)"
        let offset = offsets[key, default: 40]
        offsets[key] = offset + 1
        records.append(SourceRecord(topic: topic, partition: partition, offset: offset, key: nil, value: value))
    }
    for round in 0..<4 {
        for index in 0..<12 {
            // Contact i's version: rising for most, falling (a late arrival) for every third,
            // the same twice (a re-delivery) for every fourth.
            let version = index % 3 == 0 ? 3 - round : index % 4 == 0 ? round / 2 : round
            let json =
                versions["\(index) \(version)"]
                ?? Array(fixtures.contactRecord(index: index, version: version).jsonData())
            versions["\(index) \(version)"] = json
            add("contact-records", Int32(index % 2), json)
        }
        for index in 0..<6 {
            add("agent-events", Int32(index % 2), Array(fixtures.agentEvent(index: index + round).jsonData()))
        }
        for index in 0..<4 {
            add("contact-events", 0, Array(fixtures.contactEvent(index: index + 2 * round).jsonData()))
        }
        add("contact-records", 1, Array("{\"not\": \"a contact\"}".utf8))
        add("agent-events", 0, nil)
    }
    return records
}

/// What a batch holds, comparable: the kept rows with where they came from, in order.
private struct Contents: Equatable {
    var contacts: [String]
    var copies: [String: Int]
    var agentEvents: [String]
    var contactEvents: [String]
    var deadLetters: [String]
    var nextOffsets: [PartitionKey: Int64]
    var sourceRecords: Int

    init(_ batch: IngestBatch) {
        contacts = batch.contactRecords.map {
            "\($0.value.contactId) \($0.value.lastUpdateTimestamp) \($0.partition)/\($0.offset)"
        }
        copies = batch.contactRecordCopies
        agentEvents = batch.agentEvents.map { "\($0.value.eventId) \($0.partition)/\($0.offset)" }
        contactEvents = batch.contactEvents.map { "\($0.value.id) \($0.partition)/\($0.offset)" }
        deadLetters = batch.deadLetters.map { "\($0.topic) \($0.partition)/\($0.offset) \($0.reason.kind)" }
        nextOffsets = batch.nextOffsets
        sourceRecords = batch.sourceRecordCount
    }
}

@Suite("IngestBatch(merging:): the batches a lane writes in one transaction")
struct IngestBatchMergeTests {
    @Test(
        "merging the decoded parts of a sequence of records is decoding it whole, however it is cut",
        arguments: [
            [1], [7, 13], [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], [30, 1, 60],
        ])
    func mergeIsDecodingWhole(cuts: [Int]) {
        let decoder = IngestDecoder()
        let records = mixedRecords()
        var parts: [IngestBatch] = []
        var start = 0
        var cut = 0
        while start < records.count {
            let end = min(records.count, start + cuts[cut % cuts.count])
            parts.append(decoder.decode(Array(records[start..<end])))
            start = end
            cut += 1
        }
        let whole = decoder.decode(records)
        // The test's records exercise what the merge must get right.
        #expect(whole.contactRecords.count == 12)
        #expect(whole.contactRecordCopies.values.allSatisfy { $0 == 4 })
        #expect(whole.agentEvents.count == 9)
        #expect(whole.contactEvents.count == 10)
        #expect(whole.deadLetters.count == 8)
        #expect(Set(whole.contactRecords.map { $0.value.contactId }).count == 12)
        #expect(Contents(IngestBatch(merging: parts)) == Contents(whole))
    }

    @Test("the newest version wins wherever it sits: late copies in later parts do not replace it")
    func newestWins() throws {
        var fixtures = TrafficFixtures(seed: 9)
        let decoder = IngestDecoder()
        let record = { (version: Int, offset: Int64) in
            SourceRecord(
                topic: "contact-records", partition: 0, offset: offset, key: nil,
                value: Array(fixtures.contactRecord(index: 3, version: version).jsonData()))
        }
        let merged = IngestBatch(merging: [
            decoder.decode([record(1, 10)]), decoder.decode([record(4, 11)]), decoder.decode([record(2, 12)]),
        ])
        let kept = try #require(merged.contactRecords.first)
        #expect(merged.contactRecords.count == 1)
        #expect(kept.offset == 11)
        #expect(merged.contactRecordCopies[kept.value.contactId] == 3)
        #expect(merged.nextOffsets == [PartitionKey(topic: "contact-records", partition: 0): 13])
        #expect(merged.firstOffsets == [PartitionKey(topic: "contact-records", partition: 0): 10])
        #expect(merged.sourceRecordCount == 3)
        #expect(IngestBatch(merging: []).isEmpty)
    }

    @Test("a part that starts a partition before where an earlier part ends overlaps it; one that follows does not")
    func overlap() {
        var fixtures = TrafficFixtures(seed: 11)
        let decoder = IngestDecoder()
        let part = { (partition: Int32, offsets: Range<Int64>) in
            decoder.decode(
                offsets.map { offset in
                    SourceRecord(
                        topic: "contact-records", partition: partition, offset: offset, key: nil,
                        value: Array(fixtures.contactRecord(index: Int(offset)).jsonData()))
                })
        }
        let earlier = part(0, 100..<200)
        #expect(earlier.firstOffsets == [PartitionKey(topic: "contact-records", partition: 0): 100])
        // The same records read again from where the partition's claim resumed, and more.
        #expect(earlier.isOverlapped(by: part(0, 100..<250)))
        #expect(earlier.isOverlapped(by: part(0, 199..<201)))
        #expect(!earlier.isOverlapped(by: part(0, 200..<300)), "the next part follows")
        #expect(!earlier.isOverlapped(by: part(1, 0..<50)), "another partition")
        #expect(!part(1, 0..<50).isOverlapped(by: earlier))
    }
}
