import ContactCenter
import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

@Suite("Importing CTR exports", .enabled(if: TestDatabase.enabled), .watched)
struct ImportTests {
    @Test("NDJSON and gzip'd concatenated JSON import with the version guard; bad records to dead_letter")
    func importsExports() async throws {
        var fixtures = TrafficFixtures(seed: 77)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "import-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // File 1: newline-delimited, the first version of 30 contacts and one broken line.
        var ndjson = (0..<30).map { String(decoding: fixtures.contactRecord(index: $0).jsonData(), as: UTF8.self) }
        ndjson.insert(#"{"ContactId": "broken""#, at: 10)
        try (ndjson.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        // File 2: concatenated without separators, gzip-compressed: newer versions of 10 contacts,
        // and an older copy that must not overwrite.
        var newer = (0..<10).map {
            String(decoding: fixtures.contactRecord(index: $0, version: 2).jsonData(), as: UTF8.self)
        }
        newer.append(String(decoding: fixtures.contactRecord(index: 5, version: 1).jsonData(), as: UTF8.self))
        let plain = directory.appendingPathComponent("b.json")
        try newer.joined().write(to: plain, atomically: true, encoding: .utf8)
        #expect(try await ChildProcess.shell("gzip '\(plain.path)'") == 0)

        try await TestDatabase.withFreshDatabase("import") { client, configuration in
            // `switchboard migrate` as the owner, then the command as a member of switchboard_writer.
            try await TestDatabase.migrate(client)
            let url = TestDatabase.url(configuration, as: .writer)
            let (status, output) = try await ChildProcess.run(
                [
                    SwitchboardProcess.binary, "import", directory.appendingPathComponent("a.json").path,
                    plain.path + ".gz",
                ],
                environment: ProcessInfo.processInfo.environment.merging(["SWITCHBOARD_DATABASE_URL": url]) { $1 })
            #expect(status == 0, "import exits 0:\n\(output)")
            #expect(output.contains("imported 42 records"))
            #expect(
                try await WorkerProcessSuites.IngestProcessTests.count(client, "SELECT count(*) FROM contact_record")
                    == 30)
            #expect(
                try await WorkerProcessSuites.IngestProcessTests.count(
                    client, "SELECT count(*) FROM contact_record WHERE attributes->>'version' = '2'")
                    == 10
            )
            #expect(
                try await WorkerProcessSuites.IngestProcessTests.count(
                    client, "SELECT sum(versions_seen)::bigint FROM contact_record")
                    == 41)
            #expect(
                try await WorkerProcessSuites.IngestProcessTests.count(
                    client, "SELECT count(*) FROM dead_letter WHERE topic = 'import:a.json'") == 1)
            // The import's lanes kept the rollups: the views equal their definitions over the raw rows.
            let differences = try await RollupStore(client: client, logger: TestDatabase.logger).differences()
            #expect(differences == [], "rollups after the import")
        }
    }
}
