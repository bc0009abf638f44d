import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// What the read-only analyst role may see: the views, never the raw tables; an allow-list of
/// contact attributes; never a phone number beyond its last 4 digits.
@Suite("SQL for analysts: the analyst role and masking", .enabled(if: TestDatabase.enabled))
struct AnalystViewMaskingTests {
    static let record = ContactTraceRecord(
        contactId: "masked-1",
        initiationTimestamp: AnalystFixtures.base,
        disconnectTimestamp: AnalystFixtures.base.adding(seconds: 300),
        disconnectReason: "AGENT_DISCONNECT",
        lastUpdateTimestamp: AnalystFixtures.base.adding(seconds: 400),
        customerEndpoint: .init(address: "+819012345678"),
        systemEndpoint: .init(address: "+81355500102"),
        attributes: [
            "storeId": "test-bistro",
            "language": "ja",
            "callbackNumber": "+81 90-1234-5678",  // not allowed: absent
            "note": "please call 090 1234 5678 after six",  // allowed, phone-like: masked
            "reservationDate": "2026-12-24",  // allowed, a date: kept
            "partySize": "4",  // allowed, too short for a phone number: kept
        ],
        queue: .init(
            arn: AnalystFixtures.reservations.arn, name: AnalystFixtures.reservations.name,
            enqueueTimestamp: AnalystFixtures.base.adding(seconds: 20),
            dequeueTimestamp: AnalystFixtures.base.adding(seconds: 30), duration: 10),
        agent: .init(
            arn: AnalystFixtures.taro.arn, username: "taro",
            connectedToAgentTimestamp: AnalystFixtures.base.adding(seconds: 30), agentInteractionDuration: 200),
        transferCompletedTimestamp: AnalystFixtures.base.adding(seconds: 230),
        transferredToEndpoint: .init(address: "+81 3-1234-5678")
    )

    @Test("the analyst role reads the views and sees allowed attributes only, phone numbers masked")
    func analystRole() async throws {
        try await IngestWriterTests.migrated("analyst_role") { client in
            try await AnalyticsSettingStore(client: client, logger: TestDatabase.logger)
                .set(AnalyticsSettingStore.attributeKeys, to: "storeId, language,note,reservationDate,partySize")
            let source = SourceRecord(
                topic: "contact-records", partition: 0, offset: 0, key: nil, value: Array(Self.record.jsonData()))
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode([source]), claims: nil)
            var analyst = try TestDatabase.configuration()
            analyst.username = "switchboard_analyst"
            analyst.database = "t_analyst_role"
            try await TestDatabase.withClient(analyst) { analystClient async throws in
                let rows = try await analystClient.query(
                    """
                    SELECT customer_number, transferred_to_endpoint, attributes::text FROM contact_record_analyst
                    """,
                    logger: TestDatabase.logger)
                var seen = 0
                for try await (customer, transferred, attributes) in rows.decode((String?, String?, String).self) {
                    seen += 1
                    #expect(customer == "+********5678")  // 11 digits, the last 4 kept
                    #expect(transferred == "+** *-****-5678")
                    let object = try JSONSerialization.jsonObject(with: Data(attributes.utf8)) as? [String: String]
                    #expect(
                        object == [
                            "storeId": "test-bistro", "language": "ja", "note": "****** **** *** **** 5678 ***** ***",
                            "reservationDate": "2026-12-24", "partySize": "4",
                        ])
                }
                #expect(seen == 1)
                let outcome = try await analystClient.query(
                    "SELECT transferred_to_endpoint, transferred_out_external FROM contact_outcome",
                    logger: TestDatabase.logger)
                for try await (endpoint, external) in outcome.decode((String?, Bool).self) {
                    #expect(endpoint == "+** *-****-5678")
                    #expect(external)
                }
                for table in ["contact_record", "agent_event", "contact_event", "dead_letter", "consumer_offset"] {
                    await #expect(throws: PSQLError.self, "\(table) is not for analysts") {
                        try await analystClient.query(
                            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: TestDatabase.logger)
                    }
                }
                for view in [
                    "queue_interval_metrics", "store_day_metrics", "agent_contact_interval_metrics",
                    "agent_interval_metrics", "agent_status_interval", "agent_activity_segment", "contact_outcome",
                    "store", "store_business_day", "calendar_day", "analytics_setting", "staffing_plan",
                    "staffing_plan_interval", "staffing_history", "staffing_source", "staffing_history_day",
                    "staffing_refresh",
                ] {
                    let count = try await analystClient.query(
                        PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(view)"), logger: TestDatabase.logger)
                    for try await _ in count.decode(Int.self) {}
                }
            }
        }
    }

    @Test("mask_phone keeps at most the last 4 digits; looks_like_phone spares dates and short numbers")
    func maskPhone() async throws {
        try await IngestWriterTests.migrated("analyst_mask") { client in
            let cases: [(String, String, Bool)] = [
                // input, mask_phone(input), looks_like_phone(input)
                ("+81312345678", "+*******5678", true),
                ("090-1234-5678", "***-****-5678", true),
                ("(03) 1234 5678", "(**) **** 5678", true),
                ("1234567", "***4567", true),
                ("123456", "******", false),  // 6 digits or fewer: nothing kept
                ("12", "**", false),
                ("2026-12-24", "****-12-24", false),  // not a phone number (masked when asked)
                ("2026-12-24T19:00:00+09:00", "****-**-*****:**:**+09:00", false),
                ("sip:alice@example.com", "***:*****@*******.***", false),
                ("", "", false),
            ]
            for (input, masked, phoneLike) in cases {
                let rows = try await client.query(
                    "SELECT mask_phone(\(input)), looks_like_phone(\(input))", logger: TestDatabase.logger)
                for try await (actualMask, actualPhoneLike) in rows.decode((String, Bool).self) {
                    #expect(actualMask == masked, "mask_phone(\(input))")
                    #expect(actualPhoneLike == phoneLike, "looks_like_phone(\(input))")
                }
            }
        }
    }
}
