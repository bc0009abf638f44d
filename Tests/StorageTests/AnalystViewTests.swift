import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// The contact metrics against tables computed by hand from ``AnalystFixtures`` (each number
/// derived in a comment from the fixture's contacts), after the real ingest writer stored them.
@Suite("SQL for analysts: Connect's contact metrics", .enabled(if: TestDatabase.enabled))
struct AnalystViewTests {
    /// Migrates a fresh database and ingests the fixtures through ``IngestWriter``.
    static func ingested(_ name: String, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        try await IngestWriterTests.migrated(name) { client in
            try await BusinessDayStore(client: client, logger: TestDatabase.logger)
                .replace(stores: [AnalystFixtures.izakaya], days: AnalystFixtures.izakayaDays)
            let records = AnalystFixtures.morning + AnalystFixtures.night
            let sources = records.enumerated().map { offset, record in
                SourceRecord(
                    topic: "contact-records", partition: 0, offset: Int64(offset), key: nil,
                    value: Array(record.jsonData()))
            }
            let summary = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode(sources), claims: nil)
            #expect(summary.contactRecordsWritten == records.count)
            try await body(client)
        }
    }

    @Test("queue_interval_metrics: abandons, callbacks, transfers and both service levels, by hand")
    func queueIntervals() async throws {
        try await Self.ingested("analyst_queue") { client in
            let actual = try await AnalystTable.fetch(
                client, from: "queue_interval_metrics",
                key: "queue_name || '@' || to_char(interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI')",
                columns: Array(Self.queueExpected.values.first!.keys))
            AnalystTable.expectEqual(actual, Self.queueExpected, "queue_interval_metrics")
        }
    }

    /// Threshold X = 20 s (the default). Reservations at 01:00Z queued A1 A2 B1 B2 C1 C2 D1 E1 F1
    /// I1 with queue times 10 45 3 50 15 30 25 8 18 65 s; Takeout queued D2 (5 s) and E2 (12 s).
    static let queueExpected: AnalystTable.Rows = [
        "Reservations@11-18 01:00": [
            "queued": 10,
            "answered": 5,  // A1 A2 C2 E1 F1
            "abandoned": 2,  // B1 B2 (C1 asked for a callback, D1 was moved, I1 the flow ended; the old rule said 5)
            "callbacks_requested": 1,  // C1
            "transferred_out": 3,  // D1 (queue), E1 (agent), F1 (external)
            "transferred_out_queue": 1,  // D1
            "transferred_out_external": 1,  // F1
            "answered_within_threshold": 3,  // A1 10 s, E1 8 s, F1 18 s
            "abandoned_within_threshold": 1,  // B1 3 s
            "removed_within_threshold": 5,  // A1 E1 F1 answered, B1 abandoned, C1 callback at 15 s
            "connect_service_level": 0.5,  // 5 / 10
            "answered_service_level": 0.3,  // 3 / 10
            "average_speed_of_answer_s": 22.2,  // (10 + 45 + 30 + 8 + 18) / 5
            "average_queue_abandon_time_s": 26.5,  // (3 + 50) / 2
            "average_handle_time_s": 125,  // (240 + 120 + 150 + 70 + 45) / 5
            "average_after_contact_work_s": 18,  // (25 + 20 + 30 + 10 + 5) / 5
            "abandonment_rate": 0.2,  // 2 / 10 (the old rule: 5 / 10)
            "max_queued_s": 65,  // I1
            "agent_connection_attempts": 7,  // A1 1 + A2 2 + B2 1 + C2 1 + E1 1 + F1 1
            "contacts_handled": 5,  // A1 A2 C2 E1 F1 connected to an agent
            "transferred_out_by_agent": 2,  // E1 (its next contact E2 was initiated TRANSFER), F1 (to a number)
            "average_customer_hold_time_s": 15,  // only A1 was put on hold: 15 / 1
            "average_customer_hold_time_all_contacts_s": 3,  // 15 / 5 handled
            "average_interaction_time_s": 104,  // (200 + 100 + 120 + 60 + 40) / 5 = 520 / 5
            "agent_non_response": 2,  // A2: 2 offers, 1 answered; B2: 1 offer, missed, then abandoned
        ],
        "Takeout@11-18 01:00": [
            "queued": 2,  // D2 E2
            "answered": 1,  // E2
            "abandoned": 1,  // D2, 5 s after the queue transfer
            "callbacks_requested": 0,
            "transferred_out": 0,
            "transferred_out_queue": 0,
            "transferred_out_external": 0,
            "answered_within_threshold": 1,  // E2 12 s
            "abandoned_within_threshold": 1,  // D2 5 s
            "removed_within_threshold": 2,
            "connect_service_level": 1,  // 2 / 2
            "answered_service_level": 0.5,  // 1 / 2
            "average_speed_of_answer_s": 12,
            "average_queue_abandon_time_s": 5,
            "average_handle_time_s": 120,  // E2: 90 + 10 + 20
            "average_after_contact_work_s": 20,
            "abandonment_rate": 0.5,
            "max_queued_s": 12,
            "agent_connection_attempts": 1,  // E2
            "contacts_handled": 1,  // E2
            "transferred_out_by_agent": 0,
            "average_customer_hold_time_s": 10,  // E2 held 10 s
            "average_customer_hold_time_all_contacts_s": 10,  // 10 / 1
            "average_interaction_time_s": 90,  // E2
            "agent_non_response": 0,  // E2's one offer was answered; D2 was never offered
        ],
        "Reservations@11-22 16:30": [
            "queued": 1,  // J1
            "answered": 1,
            "abandoned": 0,
            "callbacks_requested": 0,
            "transferred_out": 0,
            "transferred_out_queue": 0,
            "transferred_out_external": 0,
            "answered_within_threshold": 1,  // 6 s
            "abandoned_within_threshold": 0,
            "removed_within_threshold": 1,
            "connect_service_level": 1,
            "answered_service_level": 1,
            "average_speed_of_answer_s": 6,
            "average_queue_abandon_time_s": nil,  // no abandon
            "average_handle_time_s": 60,
            "average_after_contact_work_s": 0,
            "abandonment_rate": 0,
            "max_queued_s": 6,
            "agent_connection_attempts": 1,
            "contacts_handled": 1,  // J1
            "transferred_out_by_agent": 0,
            "average_customer_hold_time_s": nil,  // J1 was never put on hold
            "average_customer_hold_time_all_contacts_s": 0,  // 0 / 1
            "average_interaction_time_s": 60,
            "agent_non_response": 0,
        ],
    ]

    @Test("store_day_metrics: calls by first contact, filed by the store's business day, by hand")
    func storeDays() async throws {
        try await Self.ingested("analyst_store_day") { client in
            let actual = try await AnalystTable.fetch(
                client, from: "store_day_metrics", key: "store_id || '@' || business_date || '@' || day_type",
                columns: Array(Self.storeDayExpected.values.first!.keys))
            AnalystTable.expectEqual(actual, Self.storeDayExpected, "store_day_metrics")
        }
    }

    /// The bistro is not in `store`: its calls fall back to the Tokyo date and the national
    /// calendar (2026-11-18 is a Wednesday). The izakaya's days come from `store_business_day`.
    static let storeDayExpected: AnalystTable.Rows = [
        "test-bistro@2026-11-18@weekday": [
            "contacts": 11,  // 14 records minus C2, D2, E2, which continue C1, D1, E1 (the old count: 14)
            "contact_records": 14,
            "ended_in_flow": 1,  // H1 (G1 is outbound and was handled; the old rule counted both)
            "queued": 12,  // 10 in Reservations + 2 in Takeout
            "answered": 6,  // A1 A2 C2 E1 F1 + E2
            "abandoned": 3,  // B1 B2 + D2
            "callbacks_requested": 1,  // C1
            "contacts_handled": 7,  // the 6 answered + G1 outbound
            "contacts_handled_incoming": 5,  // A1 A2 E1 F1 inbound + E2 transfer (C2 is a callback)
            "contacts_handled_outbound": 1,  // G1
            "callback_contacts_handled": 1,  // C2
            "transferred_out": 3,  // D1 E1 F1
            "transferred_out_external": 1,  // F1
            "connect_service_level": 0.5833,  // (5 + 2) / 12
            "answered_service_level": 0.3333,  // (3 + 1) / 12
            "average_speed_of_answer_s": 20.5,  // (10 + 45 + 30 + 8 + 18 + 12) / 6
            "average_handle_time_s": 137.86,  // (240 + 120 + 150 + 70 + 45 + 120 + 220) / 7 = 965 / 7
            "average_after_contact_work_s": 21.43,  // (25 + 20 + 30 + 10 + 5 + 20 + 40) / 7 = 150 / 7
            "abandonment_rate": 0.25,  // 3 / 12
            "agent_connection_attempts": 8,  // 7 in Reservations + 1 in Takeout
        ],
        "test-izakaya@2026-11-22@pre_holiday": [
            "contacts": 1,  // J1 at 01:30 on the 23rd belongs to Sunday's 17:00–26:00
            "contact_records": 1,
            "ended_in_flow": 0,
            "queued": 1,
            "answered": 1,
            "abandoned": 0,
            "callbacks_requested": 0,
            "contacts_handled": 1,
            "contacts_handled_incoming": 1,
            "contacts_handled_outbound": 0,
            "callback_contacts_handled": 0,
            "transferred_out": 0,
            "transferred_out_external": 0,
            "connect_service_level": 1,
            "answered_service_level": 1,
            "average_speed_of_answer_s": 6,
            "average_handle_time_s": 60,
            "average_after_contact_work_s": 0,
            "abandonment_rate": 0,
            "agent_connection_attempts": 1,
        ],
        "test-izakaya@2026-11-23@holiday": [
            "contacts": 1,  // J2 at 03:30, after Sunday's closing at 02:00
            "contact_records": 1,
            "ended_in_flow": 1,
            "queued": 0,
            "answered": 0,
            "abandoned": 0,
            "callbacks_requested": 0,
            "contacts_handled": 0,
            "contacts_handled_incoming": 0,
            "contacts_handled_outbound": 0,
            "callback_contacts_handled": 0,
            "transferred_out": 0,
            "transferred_out_external": 0,
            "connect_service_level": nil,  // nothing queued
            "answered_service_level": nil,
            "average_speed_of_answer_s": nil,
            "average_handle_time_s": nil,
            "average_after_contact_work_s": nil,
            "abandonment_rate": nil,
            "agent_connection_attempts": 0,
        ],
    ]

    @Test("agent_contact_interval_metrics: handled incl. outbound, transfers, hierarchy, by hand")
    func agentContacts() async throws {
        try await Self.ingested("analyst_agent_contacts") { client in
            let columns = [
                "contacts_handled", "contacts_handled_incoming", "contacts_handled_outbound",
                "callback_contacts_handled", "transferred_out", "transferred_out_external", "average_handle_time_s",
                "average_after_contact_work_s",
            ]
            let actual = try await AnalystTable.fetch(
                client, from: "agent_contact_interval_metrics",
                key: """
                    username || '@' || to_char(interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI') || '@'
                    || concat_ws('/', agent_hierarchy_level1, agent_hierarchy_level2, agent_hierarchy_level3)
                    """,
                columns: columns)
            AnalystTable.expectEqual(
                actual,
                [
                    "hanako@11-18 01:00@Kanto/Shibuya/Reservations team": [
                        "contacts_handled": 4,  // A1 C2 E2 G1
                        "contacts_handled_incoming": 2,  // A1 inbound, E2 transfer
                        "contacts_handled_outbound": 1,  // G1
                        "callback_contacts_handled": 1,  // C2
                        "transferred_out": 0,
                        "transferred_out_external": 0,
                        "average_handle_time_s": 182.5,  // (240 + 150 + 120 + 220) / 4
                        "average_after_contact_work_s": 28.75,  // (25 + 30 + 20 + 40) / 4
                    ],
                    "taro@11-18 01:00@Kanto/Shinjuku": [
                        "contacts_handled": 3,  // A2 E1 F1
                        "contacts_handled_incoming": 3,
                        "contacts_handled_outbound": 0,
                        "callback_contacts_handled": 0,
                        "transferred_out": 2,  // E1 to Takeout, F1 to an external number
                        "transferred_out_external": 1,  // F1
                        "average_handle_time_s": 78.33,  // (120 + 70 + 45) / 3
                        "average_after_contact_work_s": 11.67,  // (20 + 10 + 5) / 3
                    ],
                    "hanako@11-22 16:30@Kanto/Shibuya/Reservations team": [
                        "contacts_handled": 1,  // J1
                        "contacts_handled_incoming": 1,
                        "contacts_handled_outbound": 0,
                        "callback_contacts_handled": 0,
                        "transferred_out": 0,
                        "transferred_out_external": 0,
                        "average_handle_time_s": 60,
                        "average_after_contact_work_s": 0,
                    ],
                ],
                "agent_contact_interval_metrics")
        }
    }

    @Test("contact_record keeps the transfer, connection attempts and hierarchy columns; older copies lose")
    func storedColumns() async throws {
        try await Self.ingested("analyst_columns") { client in
            // An older copy of F1 without the transfer arrives late: the stored row keeps the newer one.
            var stale = AnalystFixtures.morning.first { $0.contactId == "F1" }!
            stale.lastUpdateTimestamp = stale.lastUpdateTimestamp.adding(seconds: -3_600)
            stale.transferCompletedTimestamp = nil
            stale.transferredToEndpoint = nil
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger).write(
                IngestDecoder().decode([
                    SourceRecord(
                        topic: "contact-records", partition: 0, offset: 100, key: nil, value: Array(stale.jsonData()))
                ]),
                claims: nil)
            let rows = try await client.query(
                """
                SELECT contact_id, transferred_to_endpoint, transfer_completed_ts IS NOT NULL, agent_connection_attempts,
                       agent_hierarchy_level2, initial_contact_id, next_contact_id, initiation_method
                FROM contact_record WHERE contact_id IN ('F1', 'A2', 'E2') ORDER BY contact_id
                """,
                logger: TestDatabase.logger)
            var seen: [String] = []
            for try await row in rows.decode((String, String?, Bool, Int?, String?, String?, String?, String?).self) {
                seen.append(row.0)
                switch row.0 {
                case "A2":
                    #expect(row.3 == 2)
                    #expect(row.4 == "Shinjuku")
                    #expect(row.5 == nil, "a first contact has no InitialContactId")
                case "E2":
                    #expect(row.5 == "E1")
                    #expect(row.7 == "TRANSFER")
                case "F1":
                    #expect(row.1 == "+81 3-1234-5678")
                    #expect(row.2)
                default: Issue.record("unexpected \(row.0)")
                }
            }
            #expect(seen == ["A2", "E2", "F1"])
        }
    }
}
