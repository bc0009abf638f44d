import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// `sslmode` on the paths a `switchboard` process opens: `migrate` (its pool, the migrations and
/// the analyst setup) and `import` (its pool and its write connections). Each logs in as the
/// test server's `switchboard_tls`, which `pg_hba.conf` admits over TLS only, so a process that
/// succeeds has used TLS on every connection it opened.
@Suite("PostgreSQL TLS: migrate and import honour sslmode", .enabled(if: TestDatabase.enabled), .watched)
struct DatabaseTLSProcessTests {
    init() async throws {
        try await TLSTestServer.ensureRole()
    }

    /// Runs `switchboard` with `arguments` against `url`, killed after 90 s: its status and output.
    func switchboard(_ arguments: [String], url: String) async throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["SWITCHBOARD_DATABASE_URL"] = url
        environment["SWITCHBOARD_FLOWS_DIR"] = Repository.flowsDirectory
        return try await ChildProcess.run(
            [SwitchboardProcess.binary] + arguments, environment: environment, killAfter: .seconds(90))
    }

    @Test("migrate over require, verify-ca and verify-full; refused for a wrong host, a wrong CA and plain text")
    func migrate() async throws {
        try await TestDatabase.withFreshDatabase("tls_migrate") { client, configuration in
            let ca = TLSTestServer.caFile
            let database = configuration.database
            for (host, query) in [
                ("127.0.0.1", "sslmode=require"),
                ("127.0.0.1", "sslmode=verify-ca&sslrootcert=\(ca)"),
                ("localhost", "sslmode=verify-full&sslrootcert=\(ca)"),
            ] {
                let run = try await switchboard(
                    ["migrate"], url: try TLSTestServer.url(host: host, database: database, query))
                #expect(run.status == 0, "migrate over \(query) at \(host):\n\(run.output)")
            }
            let rows = try await client.query("SELECT count(*)::int FROM schema_migration", logger: TestDatabase.logger)
            var applied = 0
            for try await count in rows.decode(Int.self) { applied = count }
            #expect(applied > 0, "the migrations ran over TLS")
            for (host, query) in [
                ("127.0.0.1", "sslmode=verify-full&sslrootcert=\(ca)"),
                ("localhost", "sslmode=verify-full&sslrootcert=\(TLSTestServer.wrongCAFile)"),
                ("localhost", "sslmode=verify-ca&sslrootcert=\(TLSTestServer.wrongCAFile)"),
                ("127.0.0.1", "sslmode=disable"),
            ] {
                let run = try await switchboard(
                    ["migrate"], url: try TLSTestServer.url(host: host, database: database, query))
                #expect(
                    run.status != 0 && run.status != 137,
                    "migrate over \(query) at \(host) fails, promptly:\n\(run.output)")
            }
        }
    }

    @Test("import writes over verify-full (its write connections included); a wrong CA is refused")
    func importOverTLS() async throws {
        var fixtures = TrafficFixtures(seed: 35)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tls-import-\(UUID().uuidString).json")
        let lines = (0..<20).map { String(decoding: fixtures.contactRecord(index: $0).jsonData(), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestDatabase.withFreshDatabase("tls_import") { client, configuration in
            try await TestDatabase.migrate(client)
            let ca = TLSTestServer.caFile
            let good = try TLSTestServer.url(
                host: "localhost", database: configuration.database, "sslmode=verify-full&sslrootcert=\(ca)")
            let run = try await switchboard(["import", file.path], url: good)
            #expect(run.status == 0, "import over verify-full:\n\(run.output)")
            let rows = try await client.query("SELECT count(*)::int FROM contact_record", logger: TestDatabase.logger)
            var written = 0
            for try await count in rows.decode(Int.self) { written = count }
            #expect(written == 20, "the write connections stored every record over TLS")
            let wrong = try TLSTestServer.url(
                host: "localhost", database: configuration.database,
                "sslmode=verify-full&sslrootcert=\(TLSTestServer.wrongCAFile)")
            let refused = try await switchboard(["import", file.path], url: wrong)
            #expect(
                refused.status != 0 && refused.status != 137,
                "import with a wrong CA fails, promptly:\n\(refused.output)")
        }
    }
}
