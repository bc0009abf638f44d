import ContactCenter
import Foundation
import PostgresNIO
import SwitchboardTesting
import Testing

@testable import Storage

@Suite("Ingest writer: version guard, de-duplication, dead letters, fencing", .enabled(if: TestDatabase.enabled))
struct IngestWriterTests {
    static func migrated(_ name: String, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        try await TestDatabase.withFreshDatabase(name) { client, _ in
            try await TestDatabase.migrate(client)
            try await body(client)
        }
    }

    static func record(_ id: String, updatedAt seconds: Int64, disconnectReason: String) -> ContactTraceRecord {
        ContactTraceRecord(
            contactId: id,
            initiationTimestamp: TrafficFixtures.base,
            disconnectReason: disconnectReason,
            lastUpdateTimestamp: TrafficFixtures.base.adding(seconds: seconds)
        )
    }

    @Test("the newest copy wins in every arrival order; equal timestamps go to the later offset")
    func newestWinsInEveryOrder() async throws {
        // (LastUpdateTimestamp, offset, marker): the winner is (200, 31): same time as (200, 30), later offset.
        let copies: [(Int64, Int64, String)] = [
            (100, 10, "old"), (200, 30, "tie-earlier"), (200, 31, "newest"), (150, 20, "mid"),
        ]
        let orders = permutations(Array(copies.indices))
        try await Self.migrated("guard") { client in
            let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            let decoder = IngestDecoder()
            for (orderIndex, order) in orders.enumerated() {
                let id = "contact-\(orderIndex)"
                // Half the orders arrive one copy per batch, half all in one batch.
                let sources = order.map { index in
                    let (seconds, offset, marker) = copies[index]
                    return SourceRecord(
                        topic: "contact-records",
                        partition: 0,
                        offset: offset,
                        key: Array(id.utf8),
                        value: Array(Self.record(id, updatedAt: seconds, disconnectReason: marker).jsonData())
                    )
                }
                if orderIndex % 2 == 0 {
                    for source in sources { _ = try await writer.write(decoder.decode([source]), claims: nil) }
                } else {
                    _ = try await writer.write(decoder.decode(sources), claims: nil)
                }
            }
            let rows = try await client.query(
                "SELECT disconnect_reason, source_offset, versions_seen, count(*) OVER () FROM contact_record",
                logger: TestDatabase.logger
            )
            var seen = 0
            for try await (reason, offset, versions, total) in rows.decode((String, Int64, Int, Int).self) {
                #expect(reason == "newest")
                #expect(offset == 31)
                #expect(versions == 4, "every copy counts as a version seen")
                #expect(total == orders.count)
                seen += 1
            }
            #expect(seen == 24)
        }
    }

    @Test("events are de-duplicated by id, within and across batches")
    func eventsDeduplicated() async throws {
        try await Self.migrated("events") { client in
            let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            var fixtures = TrafficFixtures(seed: 1)
            let agent = (0..<50).map { fixtures.agentEvent(index: $0) }
            let contact = (0..<40).map { fixtures.contactEvent(index: $0) }
            var sources: [SourceRecord] = []
            for (offset, event) in (agent + agent.prefix(10)).enumerated() {
                sources.append(
                    SourceRecord(
                        topic: "agent-events", partition: 1, offset: Int64(offset), key: nil,
                        value: Array(event.jsonData())))
            }
            for (offset, event) in (contact + contact.suffix(5)).enumerated() {
                sources.append(
                    SourceRecord(
                        topic: "contact-events", partition: 2, offset: Int64(offset), key: nil,
                        value: Array(event.jsonData())))
            }
            let first = try await writer.write(IngestDecoder().decode(sources), claims: nil)
            #expect(first.agentEventsWritten == 50)
            #expect(first.contactEventsWritten == 40)
            let again = try await writer.write(IngestDecoder().decode(sources), claims: nil)
            #expect(again.agentEventsWritten == 0)
            #expect(again.contactEventsWritten == 0)
            let rows = try await client.query(
                "SELECT (SELECT count(*) FROM agent_event), (SELECT count(DISTINCT activity) FROM agent_event), (SELECT count(*) FROM contact_event)",
                logger: TestDatabase.logger
            )
            for try await (agents, activities, contacts) in rows.decode((Int, Int, Int).self) {
                #expect(agents == 50)
                #expect(activities == 2, "available and customStatus")
                #expect(contacts == 40)
            }
        }
    }

    /// The worker sends `raw` and `attributes` in `jsonb`'s member order (RawJSONForm.jsonbOrder):
    /// PostgreSQL's own parse of the bytes as received is the oracle.
    @Test("raw and attributes hold the JSON as received (compared as jsonb), whatever order the worker sends")
    func rawAsReceived() async throws {
        let ctr = #"""
            {"Queue":{"Name":"q","ARN":"arn:q","EnqueueTimestamp":"2026-11-18T10:00:05Z","Duration":30},
             "ContactId":"raw-order-1","Channel":"VOICE","InitiationMethod":"INBOUND",
             "InitiationTimestamp":"2026-11-18T10:00:00Z","DisconnectTimestamp":"2026-11-18T10:05:00Z",
             "LastUpdateTimestamp":"2026-11-18T10:06:00Z",
             "Attributes":{"store_id":"s-1","日本":"寿司","a":"x\"y","\u0062":"escaped name","B":"\n"},
             "Extra":{"z":[{"b":1,"a":2.50}],"a":null,"\u0062b":true,"é":-1e3},"Extra":{"dup":"the last wins"}}
            """#
        var fixtures = TrafficFixtures(seed: 3)
        let agent = String(decoding: fixtures.agentEvent(index: 0).jsonData(), as: UTF8.self)
        let contact = String(decoding: fixtures.contactEvent(index: 0).jsonData(), as: UTF8.self)
        try await Self.migrated("raw_order") { client in
            let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            let batch = IngestDecoder().decode([
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: 0, key: nil, value: Array(ctr.utf8)),
                SourceRecord(topic: "agent-events", partition: 0, offset: 0, key: nil, value: Array(agent.utf8)),
                SourceRecord(topic: "contact-events", partition: 0, offset: 0, key: nil, value: Array(contact.utf8)),
            ])
            #expect(batch.deadLetters.isEmpty)
            let summary = try await writer.write(batch, claims: nil)
            #expect(summary.contactRecordsWritten == 1)
            #expect(summary.agentEventsWritten == 1)
            #expect(summary.contactEventsWritten == 1)
            let rows = try await client.query(
                """
                SELECT (SELECT raw = \(ctr)::jsonb FROM contact_record),
                       (SELECT attributes = (\(ctr)::jsonb)->'Attributes' FROM contact_record),
                       (SELECT raw -> 'Extra' ->> 'dup' FROM contact_record),
                       (SELECT raw = \(agent)::jsonb FROM agent_event),
                       (SELECT raw = \(contact)::jsonb FROM contact_event)
                """,
                logger: TestDatabase.logger
            )
            var seen = 0
            for try await (raw, attributes, duplicate, agentRaw, contactRaw) in rows.decode(
                (Bool, Bool, String?, Bool, Bool).self)
            {
                #expect(raw)
                #expect(attributes)
                #expect(duplicate == "the last wins")
                #expect(agentRaw)
                #expect(contactRaw)
                seen += 1
            }
            #expect(seen == 1)
        }
    }

    @Test("a zombie writer whose partition was claimed by another worker cannot commit")
    func zombieIsFenced() async throws {
        try await Self.migrated("fence") { client in
            let partition = PartitionKey(topic: "contact-records", partition: 3)
            let store = OffsetStore(client: client, group: "g", logger: TestDatabase.logger)
            let zombie = try await store.claim([partition])
            #expect(zombie[partition] == PartitionClaim(nextOffset: nil, epoch: 1))
            let owner = try await store.claim([partition])
            #expect(owner[partition]?.epoch == 2)

            var fixtures = TrafficFixtures(seed: 2)
            let source = SourceRecord(
                topic: "contact-records", partition: 3, offset: 0, key: nil,
                value: Array(fixtures.contactRecord(index: 1).jsonData()))
            let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            await #expect(throws: StorageError.self) {
                _ = try await writer.write(
                    IngestDecoder().decode([source]), claims: [partition: PartitionClaim(nextOffset: nil, epoch: 1)])
            }
            let count = try await client.query("SELECT count(*) FROM contact_record", logger: TestDatabase.logger)
            for try await rows in count.decode(Int.self) { #expect(rows == 0, "the fenced transaction rolled back") }

            _ = try await writer.write(
                IngestDecoder().decode([source]), claims: [partition: PartitionClaim(nextOffset: nil, epoch: 2)])
            #expect(try await store.nextOffsets() == [partition: 1])
            #expect(try await store.claim([partition])[partition] == PartitionClaim(nextOffset: 1, epoch: 3))

            // Forgetting (a new broker under `switchboard dev`) drops this group's offsets only.
            let other = OffsetStore(client: client, group: "other", logger: TestDatabase.logger)
            _ = try await other.claim([partition])
            #expect(try await store.forget() == 1)
            #expect(try await store.nextOffsets().isEmpty)
            #expect(try await store.claim([partition])[partition] == PartitionClaim(nextOffset: nil, epoch: 1))
            #expect(try await other.claim([partition])[partition]?.epoch == 2)
        }
    }

    @Test("every kind of bad input lands in dead_letter and later good records are ingested")
    func badInputGoesToDeadLetters() async throws {
        try await Self.migrated("deadletters") { client in
            var fixtures = TrafficFixtures(seed: 3)
            let good = Array(fixtures.contactRecord(index: 7).jsonData())
            var wrongType = String(decoding: fixtures.contactRecord(index: 8).jsonData(), as: UTF8.self)
            wrongType = wrongType.replacingOccurrences(of: "\"Duration\":", with: "\"Duration\":\"long\",\"x\":")
            let bad: [(String, [UInt8]?)] = [
                ("invalid JSON", Array("{\"ContactId\": ".utf8)),
                ("missing ContactId", Array(#"{"LastUpdateTimestamp":"2026-11-20T01:02:03Z"}"#.utf8)),
                ("wrong type", Array(wrongType.utf8)),
                ("5 MB", Array(repeating: UInt8(ascii: " "), count: 5 << 20)),
                ("not UTF-8", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D]),
                ("tombstone", nil),
            ]
            var sources = bad.enumerated().map { offset, item in
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: Int64(offset), key: Array(item.0.utf8),
                    value: item.1)
            }
            sources.append(SourceRecord(topic: "contact-records", partition: 0, offset: 6, key: nil, value: good))
            let batch = IngestDecoder().decode(sources)
            #expect(batch.deadLetters.count == 6)
            #expect(batch.nextOffsets[PartitionKey(topic: "contact-records", partition: 0)] == 7)
            let summary = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(batch, claims: nil)
            #expect(summary.deadLettersWritten == 6)
            #expect(summary.contactRecordsWritten == 1)
            let rows = try await client.query(
                #"SELECT "offset", error, value IS NULL, coalesce(length(value), 0) FROM dead_letter ORDER BY "offset""#,
                logger: TestDatabase.logger
            )
            var errors: [String] = []
            for try await (offset, error, isNull, length) in rows.decode((Int64, String, Bool, Int).self) {
                errors.append(error)
                if offset == 3 { #expect(length == 5 << 20, "the raw bytes are kept") }
                #expect(isNull == (offset == 5))
            }
            #expect(errors.count == 6)
            #expect(errors[1].contains("ContactId"))
            #expect(errors[2].contains("Queue.Duration"))
            #expect(errors[3].hasPrefix("too_large"))
            #expect(errors[4].hasPrefix("invalid"))
            #expect(errors[5].hasPrefix("tombstone"))
        }
    }

    @Test("a batch of more contacts than one statement binds is written whole: every row, its versions, the rollups")
    func batchAcrossStatements() async throws {
        // 4,500 contacts, every tenth sent twice (an older copy first): three upsert statements.
        var fixtures = TrafficFixtures(seed: 23)
        var sources: [SourceRecord] = []
        for index in 0..<4_500 {
            if index % 10 == 0 {
                let older = fixtures.contactRecord(index: index, version: 0, answered: true)
                sources.append(
                    SourceRecord(
                        topic: "contact-records", partition: 0, offset: Int64(sources.count), key: nil,
                        value: Array(older.jsonData())))
            }
            let record = fixtures.contactRecord(index: index, version: index % 10 == 0 ? 1 : 0, answered: true)
            sources.append(
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: Int64(sources.count), key: nil,
                    value: Array(record.jsonData())))
        }
        let batch = IngestDecoder().decode(sources)
        #expect(batch.contactRecords.count == 4_500)
        #expect(IngestWriter.upsertChunks(batch.contactRecords).map(\.count) == [2_000, 2_000, 500])
        try await Self.migrated("across_statements") { client in
            let writer = IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            let summary = try await writer.write(batch, claims: nil)
            #expect(summary.contactRecordsWritten == 4_500)
            #expect(try await WriteRecoveryTests.count(client, "SELECT count(*)::int8 FROM contact_record") == 4_500)
            #expect(
                try await WriteRecoveryTests.count(client, "SELECT sum(versions_seen)::int8 FROM contact_record")
                    == 4_950)
            #expect(
                try await WriteRecoveryTests.count(
                    client, "SELECT count(*)::int8 FROM contact_record WHERE versions_seen = 2")
                    == 450)
            #expect(try await RollupStore(client: client, logger: TestDatabase.logger).differences().isEmpty)
        }
    }

    @Test("the statements of a large batch take its contacts in ContactId order, each once")
    func chunksInContactIDOrder() {
        var fixtures = TrafficFixtures(seed: 29)
        let records = (0..<5_001).map { index in
            IngestBatch.Sourced(
                value: fixtures.contactRecord(index: index), partition: 0, offset: Int64(index),
                topic: "contact-records", key: nil)
        }
        let chunks = IngestWriter.upsertChunks(records)
        #expect(chunks.map(\.count) == [2_000, 2_000, 1_001])
        let ids = chunks.joined().map(\.value.contactId)
        #expect(
            ids == records.map(\.value.contactId).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(IngestWriter.upsertChunks(Array(records.prefix(2_000))).map(\.count) == [2_000], "one statement")
    }
}

func permutations<T>(_ items: [T]) -> [[T]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index -> [[T]] in
        var rest = items
        let item = rest.remove(at: index)
        return permutations(rest).map { [item] + $0 }
    }
}
