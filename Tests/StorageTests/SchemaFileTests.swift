import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// `docs/schema.sql` is the schema a fresh database has after the last migration.
@Suite("docs/schema.sql matches a freshly migrated database", .enabled(if: TestDatabase.enabled))
struct SchemaFileTests {
    /// The checked-in file.
    static let file = Repository.root.appendingPathComponent("docs/schema.sql")
    /// The one command that rewrites the file.
    static let regenerate = "make schema"

    @Test("pg_dump --schema-only of a freshly migrated database is docs/schema.sql")
    func schemaFile() async throws {
        let dump = try await TestDatabase.withFreshDatabase("schema_file") { client, configuration in
            try await TestDatabase.migrate(client)
            // The monthly partitions depend on the month the migration ran (the current one and
            // those ahead): left out, so the file is the same every month.
            let partitions = try await client.query(
                """
                SELECT c.relname FROM pg_inherits i
                JOIN pg_class c ON c.oid = i.inhrelid
                JOIN pg_class p ON p.oid = i.inhparent
                WHERE p.relkind = 'p' AND c.relname ~ '_y[0-9]{4}m[0-9]{2}$'
                ORDER BY 1
                """,
                logger: TestDatabase.logger)
            var names: [String] = []
            for try await name in partitions.decode(String.self) { names.append(name) }
            for name in names {
                try await client.query("DROP TABLE \(unescaped: name)", logger: TestDatabase.logger)
            }
            return try await Self.pgDump(configuration)
        }
        let expected = Self.render(dump, version: SwitchboardSchema.migrations.last?.version ?? 0)
        if ProcessInfo.processInfo.environment["SWITCHBOARD_SCHEMA_WRITE"] == "1" {
            try Data(expected.utf8).write(to: Self.file)
            return
        }
        let current = (try? String(contentsOf: Self.file, encoding: .utf8)) ?? ""
        let difference = Self.firstDifference(current, expected)
        #expect(
            current == expected,
            """
            docs/schema.sql differs from the schema of a freshly migrated database\(difference). \
            Regenerate it with `\(Self.regenerate)` and commit it with the migration.
            """
        )
    }

    @Test("the dump's banner, settings and restrict keys are dropped, blank runs squeezed")
    func rendering() {
        let dump = """
            --
            -- PostgreSQL database dump
            --

            \\restrict abc123

            -- Dumped from database version 15.14
            -- Dumped by pg_dump version 15.14

            SET statement_timeout = 0;
            SELECT pg_catalog.set_config('search_path', '', false);

            --
            -- Name: t; Type: TABLE; Schema: public; Owner: -
            --

            CREATE TABLE public.t (
                id integer
            );



            --
            -- PostgreSQL database dump complete
            --

            \\unrestrict abc123

            """
        #expect(
            Self.render(dump, version: 7) == Self.header(version: 7) + """
                --
                -- Name: t; Type: TABLE; Schema: public; Owner: -
                --

                CREATE TABLE public.t (
                    id integer
                );

                """)
    }

    /// The file's first lines: what it is and how it is made.
    static func header(version: Int) -> String {
        """
        -- Switchboard's schema after migration \(version): every table, view, function and comment.
        -- Generated (`\(regenerate)`) from `pg_dump --schema-only --no-owner --no-privileges` of a
        -- freshly migrated database, without the monthly partitions of the raw tables
        -- (`<table>_yYYYYmMM`, made by raw_partitions_ensure() for the current and coming months);
        -- do not edit. The migrations are Sources/Storage/Migrations/; docs/schema.md explains both.


        """
    }

    /// `dump` without pg_dump's banner, session settings and `\restrict` keys (random per run),
    /// with runs of empty lines squeezed to one, after ``header(version:)``.
    static func render(_ dump: String, version: Int) -> String {
        var lines: [Substring] = []
        var body = dump[...]
        if let first = body.range(of: "--\n-- Name: ") { body = body[first.lowerBound...] }
        if let end = body.range(of: "--\n-- PostgreSQL database dump complete") { body = body[..<end.lowerBound] }
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("\\restrict") || line.hasPrefix("\\unrestrict") || line.hasPrefix("SET ")
                || line.hasPrefix("SELECT pg_catalog.set_config(")
            {
                continue
            }
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return header(version: version) + lines.joined(separator: "\n") + "\n"
    }

    /// pg_dump's schema of the database of `configuration` (pg_dump from `SWITCHBOARD_TEST_POSTGRES_BIN`).
    static func pgDump(_ configuration: DatabaseConfiguration, privileges: Bool = false) async throws -> String {
        var environment = ProcessInfo.processInfo.environment
        let directory = environment["SWITCHBOARD_TEST_POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin"
        if let password = configuration.password { environment["PGPASSWORD"] = password }
        let executable = URL(fileURLWithPath: directory).appendingPathComponent("pg_dump").path
        let (status, dump) = try await ChildProcess.run(
            [
                executable, "--schema-only", "--no-owner", "--host", configuration.host,
                "--port", String(configuration.port), "--username", configuration.username, configuration.database,
            ] + (privileges ? [] : ["--no-privileges"]), environment: environment, includingErrors: false)
        guard status == 0 else { throw PgDumpFailed(status: status, executable: executable) }
        return dump
    }

    /// Where `old` and `new` first differ, for the failure message.
    static func firstDifference(_ old: String, _ new: String) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(oldLines.count, newLines.count) {
            let oldLine = index < oldLines.count ? String(oldLines[index]) : "(end of file)"
            let newLine = index < newLines.count ? String(newLines[index]) : "(end of file)"
            if oldLine != newLine {
                return " (line \(index + 1): file has \"\(oldLine)\", database has \"\(newLine)\")"
            }
        }
        return ""
    }

    struct PgDumpFailed: Error, CustomStringConvertible {
        var status: Int32
        var executable: String
        var description: String { "\(executable) exited with status \(status)" }
    }
}
