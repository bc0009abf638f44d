import ContactCenter
import Foundation
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// Least privilege, checked from the catalogs and by trying: each role can do exactly what the
/// allow-list in docs/analysts.md says, and the probes an attacker would try as the analyst fail.
@Suite("Least privilege: the privilege audit and the analyst's probes", .enabled(if: TestDatabase.enabled))
struct PrivilegeAuditTests {
    /// A migrated database (``TestDatabase/migrate(_:)``, the privileges file included) with one
    /// contact record whose attributes hold an e-mail address and a full-width phone number.
    static func migrated(_ name: String, _ body: @Sendable (PostgresClient, DatabaseConfiguration) async throws -> Void)
        async throws
    {
        try await TestDatabase.withFreshDatabase(name) { client, configuration in
            try await TestDatabase.migrate(client)
            let record = ContactTraceRecord(
                contactId: "probe-1",
                initiationTimestamp: AnalystFixtures.base,
                disconnectTimestamp: AnalystFixtures.base.adding(seconds: 300),
                disconnectReason: "CUSTOMER_DISCONNECT",
                lastUpdateTimestamp: AnalystFixtures.base.adding(seconds: 400),
                customerEndpoint: .init(address: "+819012345678"),
                attributes: [
                    "storeId": "test-bistro", "email": "hanako@example.com", "followUp": "折り返し ０３－１２３４－５６７８",
                ]
            )
            let source = SourceRecord(
                topic: "contact-records", partition: 0, offset: 0, key: nil, value: Array(record.jsonData()))
            _ = try await IngestWriter(client: client, group: "g", logger: TestDatabase.logger)
                .write(IngestDecoder().decode([source]), claims: nil)
            try await body(client, configuration)
        }
    }

    /// Runs `body` with a client connected as `login` to `configuration`'s database.
    static func connected(
        _ configuration: DatabaseConfiguration, as login: TestDatabase.Login,
        _ body: @Sendable (PostgresClient) async throws -> Void
    ) async throws {
        var other = configuration
        other.username = login.rawValue
        try await TestDatabase.withClient(other) { try await body($0) }
    }

    /// Whether `sql` fails with SQLSTATE `state` (42501: insufficient privilege) on `connection`.
    static func fails(_ connection: PostgresConnection, _ sql: String, with state: String = "42501") async -> Bool {
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger).collect()
            return false
        } catch let error as PSQLError {
            return error.serverInfo?[.sqlState] == state
        } catch {
            return false
        }
    }

    @Test("each role can do exactly what docs/analysts.md lists; every object is listed; definers pin search_path")
    func auditMatchesAllowList() async throws {
        let allowed = try PrivilegeAudit.repositoryAllowList()
        try await Self.migrated("privilege_audit") { client, _ in
            let actual = try await PrivilegeAudit.entries(client)
            let objects = try await PrivilegeAudit.objects(client)
            let differences = PrivilegeAudit.differences(actual: actual, objects: objects, allowed: allowed)
            #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
            #expect(!actual.contains { $0.role == "PUBLIC" && $0.privilege == "EXECUTE" }, "PUBLIC executes nothing")
            #expect(try await PrivilegeAudit.definersWithoutPinnedPath(client) == [])
            // The allow-list is not vacuous: the analyst reads views, the retention role reaches
            // exactly one SECURITY DEFINER function.
            #expect(actual.contains(.init(role: "switchboard_analyst", privilege: "SELECT", object: "contact_outcome")))
            #expect(
                actual.filter { $0.role == "switchboard_retention" && $0.privilege.hasSuffix("(SECURITY DEFINER)") }
                    .map(\.object) == ["raw_retention_apply(integer,boolean)"])
            // The staffing reader reads the history and executes what the reads call, and nothing
            // else: no write anywhere, no refresh, no SECURITY DEFINER function.
            let reader = actual.filter { $0.role == "switchboard_staffing_reader" }
            #expect(
                reader.contains(
                    .init(role: "switchboard_staffing_reader", privilege: "SELECT", object: "staffing_history_day")))
            #expect(
                reader.contains(
                    .init(
                        role: "switchboard_staffing_reader", privilege: "EXECUTE",
                        object: "staffing_day_types(date,date)")))
            #expect(
                reader.filter { !["SELECT", "EXECUTE", "USAGE", "TEMPORARY"].contains($0.privilege) }.isEmpty,
                "the staffing reader writes nothing: \(reader.sorted())")
            #expect(
                !reader.contains { $0.object.hasPrefix("staffing_history_refresh") || $0.object == "contact_record" })
        }
    }

    @Test("the audit fails on a removed grant, an extra grant and objects without grants; migrate restores the file's")
    func auditCatchesDrift() async throws {
        let allowed = try PrivilegeAudit.repositoryAllowList()
        try await Self.migrated("privilege_drift") { client, _ in
            for sql in [
                "REVOKE SELECT ON contact_outcome FROM switchboard_analyst",
                "GRANT SELECT ON contact_record TO switchboard_analyst",
                "GRANT INSERT ON staffing_plan TO switchboard_staffing_reader",
                "GRANT EXECUTE ON FUNCTION staffing_history_refresh(date, date) TO switchboard_staffing_reader",
                "REVOKE SELECT ON staffing_history_day FROM switchboard_staffing_reader",
                "CREATE FUNCTION audit_probe() RETURNS integer LANGUAGE sql AS 'SELECT 1'",
                "CREATE TABLE audit_probe_table (id integer)",
            ] {
                try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            }
            let drifted = PrivilegeAudit.differences(
                actual: try await PrivilegeAudit.entries(client), objects: try await PrivilegeAudit.objects(client),
                allowed: allowed)
            #expect(drifted.contains("allowed but not granted: switchboard_analyst: SELECT on contact_outcome"))
            #expect(drifted.contains("not in the allow-list: switchboard_analyst: SELECT on contact_record"))
            #expect(drifted.contains("not in the allow-list: switchboard_staffing_reader: INSERT on staffing_plan"))
            #expect(
                drifted.contains(
                    "not in the allow-list: switchboard_staffing_reader: EXECUTE on staffing_history_refresh(date,date)"
                ))
            #expect(
                drifted.contains("allowed but not granted: switchboard_staffing_reader: SELECT on staffing_history_day")
            )
            #expect(drifted.contains { $0.hasPrefix("audit_probe() is not in the allow-list") })
            #expect(drifted.contains { $0.hasPrefix("audit_probe_table is not in the allow-list") })
            // The owner's default privileges (migration 19): a new function is executable by nobody else.
            let entries = try await PrivilegeAudit.entries(client)
            #expect(!entries.contains { $0.object == "audit_probe()" }, "a new function has no grant: \(entries)")

            // The next migrate applies the privileges file again: the file is the whole truth.
            try await TestDatabase.migrate(client)
            let restored = PrivilegeAudit.differences(
                actual: try await PrivilegeAudit.entries(client), objects: try await PrivilegeAudit.objects(client),
                allowed: allowed)
            #expect(
                restored.sorted() == [
                    "audit_probe() is not in the allow-list: grant it in Sources/Storage/Schema/privileges.sql and list it in docs/analysts.md (or list it as owner only)",
                    "audit_probe_table is not in the allow-list: grant it in Sources/Storage/Schema/privileges.sql and list it in docs/analysts.md (or list it as owner only)",
                ])
        }
    }

    @Test("the analyst's probes: no retention, no partitions, no DDL, no raw table, no shadowed allow-list")
    func analystProbes() async throws {
        try await Self.migrated("privilege_analyst") { _, configuration in
            try await Self.connected(configuration, as: .analyst) { analyst in
                try await analyst.withConnection { connection in
                    #expect(await Self.fails(connection, "SELECT * FROM raw_retention_apply(1)"))
                    #expect(await Self.fails(connection, "SELECT raw_partitions_ensure('{}', 1200)"))
                    #expect(await Self.fails(connection, "SELECT raw_partition_create('contact_record', 'x', now())"))
                    #expect(await Self.fails(connection, "SELECT rollup_rebuild(NULL, NULL)"))
                    #expect(await Self.fails(connection, "CREATE TABLE analyst_table (id integer)"))
                    #expect(await Self.fails(connection, "CREATE SCHEMA analyst_schema"))
                    for table in ["contact_record", "agent_event", "contact_event", "dead_letter", "consumer_offset"] {
                        #expect(await Self.fails(connection, "SELECT count(*) FROM \(table)"), "\(table)")
                    }
                    #expect(await Self.fails(connection, "UPDATE analytics_setting SET value = 'email'"))

                    // The caller's pg_temp comes first on its search_path: a temporary table named
                    // like the settings must not widen the allow-list.
                    for sql in [
                        "CREATE TEMP TABLE analytics_setting (key text, value text, description text)",
                        "INSERT INTO analytics_setting VALUES ('analyst_attribute_keys', 'storeId,email,followUp', '')",
                        "CREATE TEMP TABLE calendar_day (day date, name_ja text, name_en text, kind text)",
                        "INSERT INTO calendar_day VALUES ('2026-11-30', 'x', 'x', 'x')",
                    ] {
                        _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
                    }
                    let rows = try await connection.query(
                        "SELECT attributes::text FROM contact_record_analyst WHERE contact_id = 'probe-1'",
                        logger: TestDatabase.logger)
                    var seen: [String] = []
                    for try await attributes in rows.decode(String.self) { seen.append(attributes) }
                    #expect(seen.count == 1)
                    let object =
                        try JSONSerialization.jsonObject(with: Data((seen.first ?? "{}").utf8)) as? [String: String]
                    #expect(object == ["storeId": "test-bistro", "followUp": "**** **-****-5678"])
                    let dayType = try await connection.query(
                        "SELECT day_type('2026-11-30')", logger: TestDatabase.logger
                    ).collect().first?.decode(String.self)
                    #expect(dayType == "weekday", "day_type reads public.calendar_day, not the caller's table")
                }
            }
        }
    }

    @Test("PUBLIC executes no function, whichever role created it: every migrate revokes it and resets the defaults")
    func publicExecutesNothing() async throws {
        try await Self.migrated("privilege_public") { owner, _ in
            func executable(_ function: String) async throws -> Bool? {
                try await owner.query(
                    "SELECT has_function_privilege('switchboard_analyst', \(function)::text::regprocedure, 'EXECUTE')",
                    logger: TestDatabase.logger
                ).collect().first?.decode(Bool.self)
            }
            // A migrating role whose defaults let PUBLIC execute (as a role that never ran
            // migration 19 has them) creates a function.
            for statement in [
                "ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO PUBLIC",
                "CREATE FUNCTION probe_made_elsewhere() RETURNS integer LANGUAGE sql AS 'SELECT 1'",
            ] {
                _ = try await owner.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger).collect()
            }
            #expect(try await executable("probe_made_elsewhere()") == true, "the analyst executes it through PUBLIC")
            try await TestDatabase.migrate(owner)
            #expect(try await executable("probe_made_elsewhere()") == false, "the next migrate revoked it")
            _ = try await owner.query(
                "CREATE FUNCTION probe_made_after() RETURNS integer LANGUAGE sql AS 'SELECT 2'",
                logger: TestDatabase.logger
            ).collect()
            #expect(try await executable("probe_made_after()") == false, "the defaults were reset")
        }
    }

    @Test("the writer writes but cannot drop, alter or run retention; retention reaches only its function")
    func writerAndRetentionProbes() async throws {
        try await Self.migrated("privilege_writer") { owner, configuration in
            try await Self.connected(configuration, as: .writer) { writer in
                try await writer.withConnection { connection in
                    #expect(await Self.fails(connection, "SELECT * FROM raw_retention_apply(1)"))
                    #expect(await Self.fails(connection, "CREATE TABLE writer_table (id integer)"))
                    #expect(await Self.fails(connection, "DROP TABLE dead_letter"))
                    #expect(await Self.fails(connection, "ALTER TABLE contact_record ADD COLUMN x integer"))
                    #expect(await Self.fails(connection, "TRUNCATE consumer_offset"))
                    #expect(await Self.fails(connection, "DELETE FROM contact_record"))
                    #expect(await Self.fails(connection, "INSERT INTO schema_migration VALUES (999, 'x', now(), 'x')"))
                    // What it is for: the ingest's partitions through the SECURITY DEFINER function.
                    let ensured = try await connection.query(
                        "SELECT raw_partitions_ensure(ARRAY[now() - interval '5 years'], 0)",
                        logger: TestDatabase.logger
                    ).collect().first?.decode(Int.self)
                    #expect((ensured ?? 0) > 0)
                    // Months ahead are bounded: a writer asking for 1,000 gets a year's.
                    _ = try await connection.query(
                        "SELECT raw_partitions_ensure('{}', 1000)", logger: TestDatabase.logger
                    ).collect()
                    // And so are the months it names: 200 years of them before the 10 years back,
                    // and 200 after the year ahead, create none.
                    let named = try await connection.query(
                        """
                        SELECT raw_partitions_ensure(
                            ARRAY(SELECT generate_series(timestamptz '1700-01-01', '1899-12-01', interval '1 month'))
                            || ARRAY(SELECT generate_series(timestamptz '2100-01-01', '2299-12-01', interval '1 month')), 0)
                        """, logger: TestDatabase.logger
                    ).collect().first?.decode(Int.self)
                    #expect(named == 0, "no partition 10 years back or a year ahead: \(String(describing: named))")
                }
            }
            let months = try await owner.query(
                """
                SELECT max(relname)::text = 'contact_record' || to_char(
                           date_trunc('month', now(), 'UTC') AT TIME ZONE 'UTC' + interval '12 months', '"_y"YYYY"m"MM'),
                       count(*)::int
                FROM pg_class WHERE relname LIKE 'contact\\_record\\_y%' AND relkind = 'r'
                """, logger: TestDatabase.logger
            ).collect().first?.decode((Bool, Int).self)
            #expect(months?.0 == true, "the last partition is 12 months ahead: \(String(describing: months))")
            try await Self.connected(configuration, as: .retention) { retention in
                try await retention.withConnection { connection in
                    #expect(await Self.fails(connection, "SELECT count(*) FROM contact_record"))
                    #expect(await Self.fails(connection, "SELECT count(*) FROM contact_outcome"))
                    #expect(await Self.fails(connection, "SELECT raw_partitions_ensure('{}', 1)"))
                    let dropped = try await connection.query(
                        "SELECT count(*)::int FROM raw_retention_apply(1200, true)", logger: TestDatabase.logger
                    ).collect().first?.decode(Int.self)
                    #expect(dropped == 0, "a dry run over 100 years drops nothing")
                }
            }
        }
    }

    @Test("the staffing reader reads what a plan reads and contact_outcome; it cannot refresh, write or read raw rows")
    func staffingReaderProbes() async throws {
        try await Self.migrated("privilege_staffing_reader") { _, configuration in
            try await Self.connected(configuration, as: .staffingReader) { reader in
                // Every read of a plan, as `serve` makes them.
                let store = StaffingStore(client: reader, logger: TestDatabase.logger)
                let day = try #require(CivilDate(year: 2026, month: 11, day: 30))
                _ = try await store.knownQueues()
                _ = try await store.queues(before: day, queue: nil)
                _ = try await store.baselines(before: day, queue: nil)
                _ = try await store.calendar(day...day)
                _ = try await store.offered(day...day, queue: nil)
                // The refresh writes: denied.
                do {
                    try await store.refreshHistory()
                    Issue.record("the staffing reader refreshed the history")
                } catch let error as PSQLError {
                    #expect(error.serverInfo?[.sqlState] == "42501", "\(String(reflecting: error))")
                }
                try await reader.withConnection { connection in
                    let outcomes = try await connection.query(
                        "SELECT count(*)::int FROM contact_outcome WHERE contact_id = 'probe-1'",
                        logger: TestDatabase.logger
                    ).collect().first?.decode(Int.self)
                    #expect(outcomes == 1, "the view reads the raw table with its owner's rights")
                    for sql in [
                        "SELECT staffing_history_refresh('2026-11-01', '2026-11-02')",
                        "INSERT INTO staffing_refresh (through_date) VALUES ('2026-11-30')",
                        "DELETE FROM staffing_history",
                        "INSERT INTO staffing_plan (from_date, to_date) VALUES ('2026-11-30', '2026-11-30')",
                        "UPDATE analytics_setting SET value = 'email'",
                        "UPDATE store_business_day SET day_type = 'closure'",
                        "SELECT count(*) FROM contact_record",
                        "SELECT count(*) FROM contact_record_analyst",
                        "SELECT * FROM raw_retention_apply(1)",
                        "CREATE TABLE reader_table (id integer)",
                    ] {
                        #expect(await Self.fails(connection, sql), "\(sql)")
                    }
                }
            }
        }
    }

    @Test("masking reads Japanese text: full-width digits and dashes, spaces, +81, parentheses; dates stay")
    func japaneseMasking() async throws {
        let cases: [(value: String, phoneLike: Bool, shown: String)] = [
            ("０３－１２３４－５６７８", true, "**-****-5678"),
            ("090 1234 5678", true, "*** **** 5678"),
            ("+81-90-1234-5678", true, "+**-**-****-5678"),
            ("(03)1234-5678", true, "(**)****-5678"),
            ("０３ー１２３４ー５６７８まで折り返し", true, "**-****-5678******"),
            ("03‐1234‐5678", true, "**-****-5678"),
            ("03−1234−5678", true, "**-****-5678"),
            ("03―1234―5678", true, "**-****-5678"),
            ("（０３）１２３４　５６７８", true, "(**)**** 5678"),
            ("2026-12-24", false, "2026-12-24"),
            ("２０２６－１２－２４", false, "２０２６－１２－２４"),
            ("2026-12-24T19:00:00+09:00", false, "2026-12-24T19:00:00+09:00"),
            ("12/24 19:00", false, "12/24 19:00"),
            ("19:30〜21:00", false, "19:30〜21:00"),
            ("４名", false, "４名"),
        ]
        try await TestDatabase.withFreshDatabase("privilege_masking") { client, configuration in
            try await TestDatabase.migrate(client)
            try await Self.connected(configuration, as: .analyst) { analyst in
                for (value, phoneLike, shown) in cases {
                    let rows = try await analyst.query(
                        """
                        SELECT looks_like_phone(\(value)),
                               analyst_attributes(jsonb_build_object('storeId', \(value)::text))->>'storeId'
                        """,
                        logger: TestDatabase.logger)
                    for try await (actualPhoneLike, actualShown) in rows.decode((Bool, String).self) {
                        #expect(actualPhoneLike == phoneLike, "looks_like_phone(\(value))")
                        #expect(actualShown == shown, "shown to the analyst for \(value)")
                    }
                }
            }
        }
    }
}
