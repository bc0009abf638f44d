import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// The commands as production runs them: each as a login of its group role, never the owner. A
/// command whose role lacks a privilege it needs fails here; one that reaches beyond its role is
/// refused.
@Suite("Least privilege: the commands run as their roles", .enabled(if: TestDatabase.enabled), .watched)
struct LeastPrivilegeProcessTests {
    /// Runs `switchboard arguments` against `configuration`'s database as `login` (the owner's own
    /// user when `nil`); at most 3 minutes.
    static func switchboard(
        _ arguments: [String], _ configuration: DatabaseConfiguration, as login: TestDatabase.Login?
    ) async throws -> (status: Int32, output: String) {
        let environment = ProcessInfo.processInfo.environment.merging([
            "SWITCHBOARD_DATABASE_URL": TestDatabase.url(configuration, as: login),
            "SWITCHBOARD_LOG_LEVEL": "warning",
        ]) { $1 }
        return try await ChildProcess.run(
            [SwitchboardProcess.binary] + arguments, environment: environment, killAfter: .seconds(180))
    }

    @Test("import, dlq and rollup as the writer; retention as the retention role; each refused beyond its role")
    func commandsAsTheirRoles() async throws {
        var fixtures = TrafficFixtures(seed: 55)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("roles-\(UUID().uuidString).json")
        var lines = (0..<40).map { String(decoding: fixtures.contactRecord(index: $0).jsonData(), as: UTF8.self) }
        lines.insert(#"{"ContactId": "broken""#, at: 5)
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestDatabase.withFreshDatabase("roles_commands") { client, configuration in
            try await TestDatabase.migrate(client)
            for arguments in [
                ["import", file.path], ["dlq", "list"], ["dlq", "replay"], ["rollup", "rebuild"], ["rollup", "check"],
            ] {
                let run = try await Self.switchboard(arguments, configuration, as: .writer)
                #expect(run.status == 0, "\(arguments.joined(separator: " ")) as the writer:\n\(run.output)")
            }
            let rows = try await client.query(
                "SELECT (SELECT count(*) FROM contact_record)::int, (SELECT count(*) FROM dead_letter)::int",
                logger: TestDatabase.logger
            ).collect().first?.decode((Int, Int).self)
            #expect(rows?.0 == 40 && rows?.1 == 1, "the import's rows and dead letter: \(String(describing: rows))")

            let dryRun = try await Self.switchboard(
                ["retention", "--keep", "13mo", "--dry-run"], configuration, as: .retention)
            #expect(dryRun.status == 0, "retention --dry-run as the retention role:\n\(dryRun.output)")
            let retention = try await Self.switchboard(["retention", "--keep", "100y"], configuration, as: .retention)
            #expect(retention.status == 0, "retention as the retention role:\n\(retention.output)")

            for (arguments, login) in [
                (["retention", "--keep", "13mo"], TestDatabase.Login.writer),
                (["retention", "--keep", "13mo"], .analyst),
                (["import", file.path], .retention),
                (["rollup", "rebuild"], .analyst),
            ] {
                let refused = try await Self.switchboard(arguments, configuration, as: login)
                #expect(
                    refused.status != 0 && refused.status != 137 && refused.output.contains("permission denied"),
                    "\(arguments.joined(separator: " ")) as \(login.rawValue) is refused:\n\(refused.output)")
            }
        }
    }

    @Test("a role that does not migrate refuses a schema behind it, naming the missing migration")
    func schemaBehindIsRefused() async throws {
        try await TestDatabase.withFreshDatabase("roles_behind") { client, configuration in
            let empty = try await Self.switchboard(["dlq", "list"], configuration, as: nil)
            #expect(empty.status != 0 && empty.status != 137)
            #expect(empty.output.contains("run `switchboard migrate`"), "on an empty database:\n\(empty.output)")

            let last = try #require(SwitchboardSchema.migrations.last)
            try await Migrator(client: client, logger: TestDatabase.logger)
                .migrate(SwitchboardSchema.migrations.filter { $0.version < last.version })
            for arguments in [["dlq", "list"], ["ingest", "--bootstrap", "127.0.0.1:9"]] {
                let behind = try await Self.switchboard(arguments, configuration, as: nil)
                #expect(behind.status != 0 && behind.status != 137, "\(arguments[0]) exits:\n\(behind.output)")
                #expect(
                    behind.output.contains("migration \(last.version) (\(last.name)) is not applied"),
                    "\(arguments[0]) names the missing migration:\n\(behind.output)")
            }
            // serve's staffing reader checks the schema as well, and serve ends rather than serve
            // plans from a schema it does not know.
            let environment = ProcessInfo.processInfo.environment.merging([
                "SWITCHBOARD_STAFFING_DATABASE_URL": TestDatabase.url(configuration, as: nil),
                "SWITCHBOARD_HOOK_TOKENS": "hook-token-for-the-schema-test",
                "SWITCHBOARD_CONSOLE_TOKENS": "console-token-for-the-schema-test",
                "SWITCHBOARD_FLOWS_DIR": Repository.flowsDirectory,
                "SWITCHBOARD_HTTP_PORT": String(LoopbackSocket.freePort()),
                "SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS": "0",
                "SWITCHBOARD_LOG_LEVEL": "warning",
            ]) { $1 }
            let serve = try await ChildProcess.run(
                [SwitchboardProcess.binary, "serve", "--bootstrap", "127.0.0.1:9"], environment: environment,
                killAfter: .seconds(180))
            #expect(serve.status != 0 && serve.status != 137, "serve exits:\n\(serve.output)")
            #expect(
                serve.output.contains("migration \(last.version) (\(last.name)) is not applied"),
                "serve names the missing migration:\n\(serve.output)")
            #expect(
                try await client.query("SELECT max(version) FROM schema_migration", logger: TestDatabase.logger)
                    .collect().first?.decode(Int.self) == last.version - 1,
                "nothing was migrated by the refused roles")
        }
    }
}
