import ContactCenter
import Foundation
import PostgresNIO
import SwitchboardTesting
import Testing

@testable import Storage

/// Connect's "Contacts transferred out by agent" (`CONTACTS_TRANSFERRED_OUT_BY_AGENT`): the count
/// of contacts an agent transferred out with the CCP, to a queue or an agent and to an external
/// number; a flow's transfers and callbacks are not the agent's.
@Suite("Contacts transferred out by agent, worked out by hand", .enabled(if: TestDatabase.enabled))
struct TransferOutByAgentTests {
    typealias F = AnalystFixtures

    /// Reservations, 01:00–01:15Z: six calls; their next legs queue in Takeout (01:00) and, for the
    /// callback, back in Reservations at 01:15.
    static let records: [ContactTraceRecord] = [
        // T1: answered, then the agent transferred it to Takeout: the next leg T2 is a TRANSFER.
        F.record("T1", at: 0, next: "T2", wait: 10, agent: F.hanako, talk: 60, attempts: 1, reason: "AGENT_DISCONNECT"),
        F.record(
            "T2", at: 80, method: "TRANSFER", initial: "T1", queue: F.takeout, wait: 5, agent: F.taro, talk: 30,
            attempts: 1, reason: "CUSTOMER_DISCONNECT"),
        // X1: answered, then the agent transferred it to an external number (transfer completed).
        F.record(
            "X1", at: 120, wait: 12, agent: F.taro, talk: 40, attempts: 1, reason: "AGENT_DISCONNECT",
            transferredTo: "+81 3-1234-5678"),
        // Q1: the queue flow moved it to Takeout before an agent took it: QUEUE_TRANSFER, not an agent's.
        F.record("Q1", at: 180, next: "Q2", wait: 30, attempts: 0, reason: nil),
        F.record(
            "Q2", at: 215, method: "QUEUE_TRANSFER", initial: "Q1", queue: F.takeout, wait: 8, agent: F.hanako,
            talk: 50, attempts: 1, reason: "CUSTOMER_DISCONNECT"),
        // Z1: the flow transferred it to an external number while it waited: no agent.
        F.record(
            "Z1", at: 240, wait: 25, attempts: 0, reason: "CONTACT_FLOW_DISCONNECT", transferredTo: "+81 6-9876-5432"),
        // CB1: the caller asked for a callback; CB2 is the callback, queued at 01:15, answered.
        F.record("CB1", at: 300, next: "CB2", wait: 15, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        F.record(
            "CB2", at: 1_000, method: "CALLBACK", initial: "CB1", wait: 20, agent: F.hanako, talk: 70, attempts: 1,
            reason: "AGENT_DISCONNECT"),
        // B1: both: the agent transferred it externally, and its record also names a TRANSFER leg B2.
        F.record(
            "B1", at: 360, next: "B2", wait: 6, agent: F.taro, talk: 20, attempts: 1, reason: "AGENT_DISCONNECT",
            transferredTo: "+81 3-5555-0000"),
        F.record(
            "B2", at: 400, method: "TRANSFER", initial: "B1", queue: F.takeout, wait: 4, agent: F.hanako, talk: 25,
            attempts: 1, reason: "CUSTOMER_DISCONNECT"),
    ]

    /// Per contact: (transferred_out_by_agent, transferred_out_external, transferred_out_queue, transferred_out).
    static let perContact: [String: [Bool]] = [
        "T1": [true, false, false, true],  // the agent's transfer to a queue
        "T2": [false, false, false, false],
        "X1": [true, true, false, true],  // the agent's transfer to a number
        "Q1": [false, false, true, true],  // the flow's queue transfer
        "Q2": [false, false, false, false],
        "Z1": [false, true, false, true],  // the flow's transfer to a number: external, not by agent
        "CB1": [false, false, false, false],  // a callback is not a transfer
        "CB2": [false, false, false, false],
        "B1": [true, true, false, true],  // both kinds: counted once
        "B2": [false, false, false, false],
    ]

    /// Per queue and interval (by enqueue time).
    static let perInterval: AnalystTable.Rows = [
        "Reservations@11-18 01:00": [
            "queued": 6,  // T1 X1 Q1 Z1 CB1 B1
            "transferred_out_by_agent": 3,  // T1 X1 B1
            "transferred_out_external": 3,  // X1 Z1 B1
            "transferred_out_queue": 1,  // Q1
            "transferred_out": 5,  // T1 X1 Q1 Z1 B1: by agent + external + queue = 7, they overlap
            "callbacks_requested": 1,  // CB1
        ],
        "Reservations@11-18 01:15": [
            "queued": 1,  // CB2
            "transferred_out_by_agent": 0,
            "transferred_out_external": 0,
            "transferred_out_queue": 0,
            "transferred_out": 0,
            "callbacks_requested": 0,
        ],
        "Takeout@11-18 01:00": [
            "queued": 3,  // T2 Q2 B2
            "transferred_out_by_agent": 0,
            "transferred_out_external": 0,
            "transferred_out_queue": 0,
            "transferred_out": 0,
            "callbacks_requested": 0,
        ],
    ]

    static func write(_ records: [ContactTraceRecord], client: PostgresClient, from offset: Int = 0) async throws {
        let sources = records.enumerated().map { index, record in
            SourceRecord(
                topic: "contact-records", partition: 0, offset: Int64(offset + index), key: nil,
                value: Array(record.jsonData()))
        }
        _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
            .write(IngestDecoder().decode(sources), claims: nil)
    }

    static func expectFigures(_ client: PostgresClient, _ when: String) async throws {
        let rows = try await client.query(
            """
            SELECT contact_id, transferred_out_by_agent, transferred_out_external, transferred_out_queue,
                   transferred_out
            FROM contact_outcome
            """,
            logger: TestDatabase.logger)
        var actual: [String: [Bool]] = [:]
        for try await (id, agent, external, queue, out) in rows.decode((String, Bool, Bool, Bool, Bool).self) {
            actual[id] = [agent, external, queue, out]
        }
        #expect(actual == Self.perContact, "contact_outcome \(when)")
        let intervals = try await AnalystTable.fetch(
            client, from: "queue_interval_metrics",
            key: "queue_name || '@' || to_char(interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI')",
            columns: Array(Self.perInterval.values.first!.keys))
        AnalystTable.expectEqual(intervals, Self.perInterval, "queue_interval_metrics \(when)")
        #expect(try await RollupStore(client: client, logger: TestDatabase.logger).differences() == [], "\(when)")
    }

    @Test("the upkeep, a rebuild and a record-at-a-time arrival give the hand-worked counts; rollup check agrees")
    func byHand() async throws {
        try await IngestWriterTests.migrated("transfer_by_agent") { client in
            // The next legs first, one transaction each: the upkeep reclassifies previous contacts.
            for record in Self.records.reversed() { try await Self.write([record], client: client) }
            try await Self.expectFigures(client, "after the ingest's upkeep")
            _ = try await RollupStore(client: client, logger: TestDatabase.logger).rebuild(from: nil, to: nil)
            try await Self.expectFigures(client, "after a rebuild")
        }
    }

    @Test("migration 20 corrects a rollup kept by the old definition, from the raw records")
    func migrationCorrects() async throws {
        try await TestDatabase.withFreshDatabase("transfer_by_agent_upgrade") { client, _ in
            let migrator = Migrator(client: client, logger: TestDatabase.logger)
            // The schema before: migrations 1–19, their own definitions (no files applied).
            try await migrator.migrate(SwitchboardSchema.migrations.filter { $0.version <= 19 })
            try await Self.write(Self.records, client: client)
            let before = try await AnalystTable.fetch(
                client,
                from:
                    "queue_interval_rollup r JOIN (SELECT DISTINCT queue, queue_name FROM contact_outcome) q USING (queue)",
                key: "q.queue_name || '@' || to_char(r.interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI')",
                columns: ["r.transferred_out_by_agent"])
            // The old definition: T1 and B1 (next legs initiated TRANSFER), not X1 (to a number).
            #expect(before["Reservations@11-18 01:00"]?["r.transferred_out_by_agent"] == 2, "the old figure")
            try await TestDatabase.migrate(client)
            try await Self.expectFigures(client, "after migration 20")
        }
    }
}
