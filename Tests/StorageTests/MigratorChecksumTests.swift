import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// The checksums of applied migrations: recorded, filled for older rows, and checked.
@Suite("Migration checksums", .enabled(if: TestDatabase.enabled))
struct MigratorChecksumTests {
    static let logger = TestDatabase.logger

    /// `schema_migration`'s rows as (version, name, checksum).
    static func recorded(_ client: PostgresClient) async throws -> [(Int, String, String?)] {
        let rows = try await client.query(
            "SELECT version, name, checksum FROM schema_migration ORDER BY version", logger: logger)
        var recorded: [(Int, String, String?)] = []
        for try await row in rows.decode((Int, String, String?).self) { recorded.append(row) }
        return recorded
    }

    /// The rows the binary's migrations should have left.
    static var expected: [(Int, String, String?)] {
        SwitchboardSchema.migrations.map { ($0.version, $0.name, $0.checksum) }
    }

    static func same(_ left: [(Int, String, String?)], _ right: [(Int, String, String?)]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
    }

    @Test("a fresh database reaches the last migration with every checksum recorded")
    func freshDatabase() async throws {
        try await TestDatabase.withFreshDatabase("checksum_fresh") { client, _ in
            let migrator = Migrator(client: client, logger: Self.logger)
            let head = try #require(SwitchboardSchema.migrations.last).version
            #expect(try await migrator.migrate(SwitchboardSchema.migrations) == Array(1...head))
            #expect(try await migrator.currentVersion() == head)
            #expect(Self.same(try await Self.recorded(client), Self.expected))
            #expect(try await migrator.migrate(SwitchboardSchema.migrations) == [])
        }
    }

    @Test("a database migrated before checksums were recorded is upgraded and its checksums filled")
    func upgradeWithoutChecksums() async throws {
        try await TestDatabase.withFreshDatabase("checksum_upgrade") { client, _ in
            // What the migrator without checksums did: its table, then each migration and its row.
            try await client.query(
                """
                CREATE TABLE schema_migration (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                logger: Self.logger
            )
            for migration in SwitchboardSchema.migrations {
                try await client.withTransaction(logger: Self.logger) { connection in
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Self.logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))",
                        logger: Self.logger
                    )
                }
            }
            let migrator = Migrator(client: client, logger: Self.logger)
            #expect(try await migrator.migrate(SwitchboardSchema.migrations) == [])
            #expect(Self.same(try await Self.recorded(client), Self.expected))
            // The filled checksums are checked from now on.
            try await migrator.validate(SwitchboardSchema.migrations)
        }
    }

    @Test("a migration applied with another text is refused, naming its version and name; nothing is applied")
    func tamperedMigration() async throws {
        try await TestDatabase.withFreshDatabase("checksum_tampered") { client, _ in
            let migrator = Migrator(client: client, logger: Self.logger)
            try await migrator.migrate(SwitchboardSchema.migrations)
            let tampered = try #require(SwitchboardSchema.migrations.first { $0.version == 7 })
            try await client.query(
                "UPDATE schema_migration SET checksum = repeat('0', 64) WHERE version = 7", logger: Self.logger)
            let next = Migration(
                version: (SwitchboardSchema.migrations.last?.version ?? 0) + 1, name: "after the tampered one",
                statements: ["CREATE TABLE after_tampered (id int)"])
            let error = await #expect(throws: StorageError.self) {
                try await migrator.migrate(SwitchboardSchema.migrations + [next])
            }
            #expect(error?.code == .migrationChanged)
            #expect(error?.message.contains("migration 7 (\(tampered.name))") == true, "\(String(describing: error))")
            #expect(error?.message.contains(String(repeating: "0", count: 64)) == true)
            #expect(try await migrator.currentVersion() == next.version - 1, "nothing applied after a refusal")
        }
    }

    @Test("a migrator whose text of an applied migration changed is refused")
    func changedText() async throws {
        try await TestDatabase.withFreshDatabase("checksum_changed") { client, _ in
            let migrator = Migrator(client: client, logger: Self.logger)
            let original = [
                Migration(version: 1, name: "greeting", statements: ["CREATE TABLE greeting (id int PRIMARY KEY)"])
            ]
            try await migrator.migrate(original)
            let edited = [
                Migration(version: 1, name: "greeting", statements: ["CREATE TABLE greeting (id bigint PRIMARY KEY)"])
            ]
            let error = await #expect(throws: StorageError.self) { try await migrator.migrate(edited) }
            #expect(error?.code == .migrationChanged)
            #expect(error?.message.contains("migration 1 (greeting)") == true)
            #expect(try await migrator.migrate(original) == [], "the released text still passes")
        }
    }
}
