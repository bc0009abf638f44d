import Foundation
import PostgresNIO
import SwitchboardTesting
import Testing

@testable import Storage

/// The schema's functions and views, one file each: applied when their text changes, only them
/// (and, for a view, what depends on it), with their grants and comments.
@Suite("Functions and views as repeatable files", .enabled(if: TestDatabase.enabled))
struct RepeatableObjectTests {
    /// The last migration of the schema before functions and views moved to their files.
    static let lastBeforeFiles = 18

    @Test("a database of migrations 1–18 upgraded ends with the same schema, grants included, as a fresh one")
    func upgradeEqualsFresh() async throws {
        let upgraded = try await TestDatabase.withFreshDatabase("repeatable_upgraded") { client, configuration in
            try await Migrator(client: client, logger: TestDatabase.logger)
                .migrate(SwitchboardSchema.migrations.filter { $0.version <= Self.lastBeforeFiles })
            try await TestDatabase.migrate(client)
            return try await Self.dump(client, configuration)
        }
        let fresh = try await TestDatabase.withFreshDatabase("repeatable_fresh") { client, configuration in
            try await TestDatabase.migrate(client)
            return try await Self.dump(client, configuration)
        }
        #expect(upgraded.contains("GRANT SELECT ON TABLE public.contact_outcome TO switchboard_analyst"))
        #expect(
            upgraded == fresh,
            "the upgraded schema differs from the fresh one\(SchemaFileTests.firstDifference(fresh, upgraded))")
    }

    @Test("editing one file applies it once and only it; a view comes back with its dependants and their grants")
    func editOneFile() async throws {
        try await TestDatabase.withFreshDatabase("repeatable_edit") { client, _ in
            try await TestDatabase.migrate(client)
            let migrator = Migrator(client: client, logger: TestDatabase.logger)
            func migrate(_ objects: [RepeatableObject]) async throws -> [String] {
                try await migrator.migrateReporting(
                    SwitchboardSchema.migrations, repeatables: objects, privileges: SwitchboardSchema.privileges
                ).repeatables
            }
            #expect(try await migrate(SwitchboardSchema.repeatables) == [], "nothing changed")

            let function = Self.edited(SwitchboardSchema.repeatables, "mask_phone") { statements in
                statements.map {
                    $0.hasPrefix("COMMENT ON FUNCTION mask_phone")
                        ? "COMMENT ON FUNCTION mask_phone(text) IS 'Masks a phone number, edited.'" : $0
                }
            }
            #expect(try await migrate(function) == ["mask_phone"])
            #expect(try await migrate(function) == [], "applied once")
            #expect(
                try await Self.string(client, "SELECT obj_description('mask_phone(text)'::regprocedure, 'pg_proc')")
                    == "Masks a phone number, edited.")

            let view = Self.edited(function, "contact_outcome") { statements in
                statements.map { $0.hasPrefix("CREATE VIEW contact_outcome AS") ? "-- edited\n" + $0 : $0 }
            }
            #expect(try await migrate(view) == ["contact_outcome", "agent_contact_interval_metrics"])
            #expect(try await migrate(view) == [])
            for name in ["contact_outcome", "agent_contact_interval_metrics"] {
                #expect(
                    try await Self.string(
                        client, "SELECT has_table_privilege('switchboard_analyst', '\(name)', 'SELECT')::text")
                        == "true", "\(name) keeps its grant")
                #expect(
                    try await Self.string(
                        client, "SELECT (obj_description('\(name)'::regclass, 'pg_class') IS NOT NULL)::text")
                        == (name == "contact_outcome" ? "true" : "false"), "\(name) keeps its comment (if any)")
            }
            // Back to the shipped text: applied again, and the audit still holds.
            #expect(
                try await migrate(SwitchboardSchema.repeatables).sorted() == [
                    "agent_contact_interval_metrics", "contact_outcome", "mask_phone",
                ])
            let differences = PrivilegeAudit.differences(
                actual: try await PrivilegeAudit.entries(client), objects: try await PrivilegeAudit.objects(client),
                allowed: try PrivilegeAudit.repositoryAllowList())
            #expect(differences.isEmpty, "\(differences)")
        }
    }

    /// `objects` with `name`'s statements changed by `change`.
    static func edited(
        _ objects: [RepeatableObject], _ name: String, _ change: ([String]) -> [String]
    ) -> [RepeatableObject] {
        objects.map { object in
            guard object.name == name else { return object }
            var edited = object
            edited.statements = change(object.statements)
            return edited
        }
    }

    static func string(_ client: PostgresClient, _ sql: String) async throws -> String? {
        try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger).collect().first?
            .decode(String?.self)
    }

    /// pg_dump's schema with privileges, the month-dependent partitions left out.
    static func dump(_ client: PostgresClient, _ configuration: DatabaseConfiguration) async throws -> String {
        let rows = try await client.query(
            """
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE c.relname ~ '_y[0-9]{4}m[0-9]{2}$' ORDER BY 1
            """, logger: TestDatabase.logger)
        for name in try await rows.collect().map({ try $0.decode(String.self) }) {
            try await client.query("DROP TABLE \(unescaped: name)", logger: TestDatabase.logger)
        }
        return SchemaFileTests.render(try await SchemaFileTests.pgDump(configuration, privileges: true), version: 0)
    }
}
