import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

@Suite("PostgreSQL harness and migrations", .enabled(if: TestDatabase.enabled))
struct MigratorTests {
    static let trivial = [
        Migration(
            version: 1, name: "greeting", statements: ["CREATE TABLE greeting (id int PRIMARY KEY, text text NOT NULL)"]
        ),
        Migration(
            version: 2, name: "greeting rows", statements: ["INSERT INTO greeting VALUES (1, 'こんにちは'), (2, 'hello')"]),
    ]

    @Test("connect, migrate a trivial table, query it; migrating again changes nothing")
    func migrateAndQuery() async throws {
        try await TestDatabase.withFreshDatabase("harness") { client, _ in
            let migrator = Migrator(client: client, logger: TestDatabase.logger)
            #expect(try await migrator.currentVersion() == 0)
            #expect(try await migrator.migrate(Self.trivial) == [1, 2])
            #expect(try await migrator.migrate(Self.trivial) == [])
            #expect(try await migrator.currentVersion() == 2)
            let rows = try await client.query("SELECT text FROM greeting ORDER BY id", logger: TestDatabase.logger)
            var texts: [String] = []
            for try await text in rows.decode(String.self) { texts.append(text) }
            #expect(texts == ["こんにちは", "hello"])
        }
    }

    @Test("two migrators starting at once apply each migration exactly once")
    func concurrentMigrators() async throws {
        try await TestDatabase.withFreshDatabase("concurrent") { client, _ in
            let results = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await Migrator(client: client, logger: TestDatabase.logger).migrate(Self.trivial)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.flatMap { $0 }.sorted() == [1, 2])
            let rows = try await client.query("SELECT count(*) FROM greeting", logger: TestDatabase.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 2) }
        }
    }

    @Test("a failing migration leaves the previous version and names itself")
    func failingMigration() async throws {
        try await TestDatabase.withFreshDatabase("failing") { client, _ in
            let migrator = Migrator(client: client, logger: TestDatabase.logger)
            try await migrator.migrate(Self.trivial)
            let broken = Migration(
                version: 3, name: "broken", statements: ["ALTER TABLE greeting ADD COLUMN x int", "SELEKT 1"])
            await #expect(throws: StorageError.self) { try await migrator.migrate([broken]) }
            #expect(try await migrator.currentVersion() == 2)
            let rows = try await client.query(
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'greeting' AND column_name = 'x'",
                logger: TestDatabase.logger
            )
            for try await count in rows.decode(Int.self) { #expect(count == 0, "rolled back as a whole") }
        }
    }
}
