import Logging
import PostgresNIO

/// Applies versioned migrations, idempotently, and safely when several workers start at once.
///
/// Every run takes a transaction-scoped advisory lock, so concurrent migrators queue up; each
/// migration runs in its own transaction together with its row in `schema_migration`, so a
/// failed migration leaves the database at the previous version.
///
/// Each row records the migration's ``Migration/checksum``. Before applying anything, the migrator
/// compares the recorded checksums with its own, as Flyway's `validate` does: a migration applied
/// with another text is refused (``StorageError/Code/migrationChanged``), and a row recorded
/// before the column existed gets its checksum filled. Rows of versions the migrator does not know
/// (a newer binary migrated the database) are left alone.
public struct Migrator: Sendable {
    /// The advisory lock key shared by every Switchboard process ("SWBD" in ASCII).
    static let lockKey: Int64 = 0x5357_4244

    private let client: PostgresClient
    private let logger: Logger

    /// Creates a migrator over a running client.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Checks the applied migrations against `migrations`, then applies every one newer than the
    /// database's version.
    ///
    /// - Returns: The versions applied by this call (empty when the schema was current).
    /// - Throws: ``StorageError`` `.migrationChanged` naming the first applied migration whose
    ///   checksum differs (nothing is applied then), or `.migration` naming the version that failed
    ///   and why.
    ///
    /// - Parameter privileges: The statements of the privileges file
    ///   (``SwitchboardSchema/privileges``), applied after the migrations on every call, in one
    ///   transaction under the lock: they revoke and grant each group role's privileges, so the
    ///   database always holds exactly the file's (empty: none applied).
    @discardableResult
    public func migrate(_ migrations: [Migration], privileges: [String] = []) async throws -> [Int] {
        let ordered = migrations.sorted { $0.version < $1.version }
        // A version recorded with its checksum needs no transaction of its own.
        let recorded = try await recordedVersions(ordered)
        var applied: [Int] = []
        for migration in ordered where !recorded.contains(migration.version) {
            let didApply = try await apply(migration)
            if didApply { applied.append(migration.version) }
        }
        if !applied.isEmpty {
            logger.info("schema migrated", metadata: ["versions": "\(applied)"])
        }
        if !privileges.isEmpty { try await applyPrivileges(privileges) }
        return applied
    }

    /// Checks that every one of `migrations` is applied, with its text, without changing anything:
    /// what a role that does not own the schema does at start instead of migrating.
    ///
    /// Needs only `SELECT` on `schema_migration`. Versions the database has and `migrations` does
    /// not (a newer binary migrated it) are fine.
    ///
    /// - Throws: ``StorageError`` `.schemaBehind` naming the first migration not applied (or the
    ///   missing `schema_migration` table), `.migrationChanged` naming an applied migration whose
    ///   checksum differs.
    public func verify(_ migrations: [Migration]) async throws {
        let rows: [(Int, String?)]
        do {
            rows = try await client.query("SELECT version, checksum FROM schema_migration", logger: logger)
                .collect().map { try $0.decode((Int, String?).self) }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
            throw StorageError(
                code: .schemaBehind,
                message: "the database has no schema: run `switchboard migrate` as the schema's owner first")
        }
        let recorded = Dictionary(rows, uniquingKeysWith: { first, _ in first })
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            guard let checksum = recorded[migration.version] else {
                throw StorageError(
                    code: .schemaBehind,
                    message: """
                        the schema is behind this binary: migration \(migration.version) (\(migration.name)) is not \
                        applied; run `switchboard migrate` as the schema's owner first
                        """
                )
            }
            if let checksum, checksum != migration.checksum { throw Self.changed(migration, recorded: checksum) }
        }
    }

    /// The group roles the privileges file grants to that do not exist (the migrating role could
    /// not create them): the operator creates them and runs migrate again.
    public func missingGroupRoles() async throws -> [String] {
        let rows = try await client.query(
            """
            SELECT r FROM unnest(\(SwitchboardSchema.groupRoles)::text[]) AS r
            WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) ORDER BY r
            """,
            logger: logger)
        return try await rows.collect().map { try $0.decode(String.self) }
    }

    /// Runs the privileges file's statements in one transaction under the migration lock.
    private func applyPrivileges(_ statements: [String]) async throws {
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
        } catch {
            throw StorageError(
                code: .migration, message: "applying the privileges failed: \(String(reflecting: error))")
        }
        let missing = try await missingGroupRoles()
        if !missing.isEmpty {
            logger.warning(
                "group roles missing, their privileges are not granted: ask an administrator to create them (deploy/README.md, \"Database roles\") and run migrate again",
                metadata: ["roles": "\(missing.joined(separator: ","))"])
        }
    }

    /// Compares the checksums recorded in `schema_migration` with those of `migrations` and fills
    /// the ones missing (rows applied before the column existed).
    ///
    /// - Throws: ``StorageError`` `.migrationChanged` naming the first applied migration whose
    ///   recorded checksum differs from its checksum in `migrations`.
    public func validate(_ migrations: [Migration]) async throws {
        _ = try await recordedVersions(migrations)
    }

    /// ``validate(_:)``, returning the versions of `migrations` recorded as applied.
    private func recordedVersions(_ migrations: [Migration]) async throws -> Set<Int> {
        let known = Dictionary(migrations.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        // Errors thrown inside a transaction come out wrapped: the closure returns what it found.
        let (changed, filled, recorded) = try await client.withTransaction(logger: logger) {
            connection -> ((Migration, recorded: String)?, [Int], Set<Int>) in
            try await lockAndEnsureVersionTable(connection)
            let rows = try await connection.query(
                "SELECT version, checksum FROM schema_migration ORDER BY version", logger: logger)
            var missing: [Migration] = []
            var versions = Set<Int>()
            for try await (version, recorded) in rows.decode((Int, String?).self) {
                guard let migration = known[version] else { continue }
                versions.insert(version)
                if let recorded {
                    if recorded != migration.checksum { return ((migration, recorded), [], []) }
                } else {
                    missing.append(migration)
                }
            }
            for migration in missing {
                try await connection.query(
                    """
                    UPDATE schema_migration SET checksum = \(migration.checksum)
                    WHERE version = \(migration.version) AND checksum IS NULL
                    """,
                    logger: logger
                )
            }
            return (nil, missing.map(\.version), versions)
        }
        if let (migration, recorded) = changed { throw Self.changed(migration, recorded: recorded) }
        if !filled.isEmpty {
            logger.info("recorded the checksums of migrations applied before", metadata: ["versions": "\(filled)"])
        }
        return recorded
    }

    /// The highest applied version, or 0 for an empty database.
    public func currentVersion() async throws -> Int {
        try await client.withTransaction(logger: logger) { try await lockAndEnsureVersionTable($0) }
        let rows = try await client.query("SELECT coalesce(max(version), 0) FROM schema_migration", logger: logger)
        for try await version in rows.decode(Int.self) { return version }
        return 0
    }

    /// Takes the advisory lock and creates `schema_migration`, or adds its `checksum` column to the
    /// table of a migrator that did not record one.
    private func lockAndEnsureVersionTable(_ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migration (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now(),
                checksum text
            )
            """,
            logger: logger
        )
        try await connection.query(
            "ALTER TABLE schema_migration ADD COLUMN IF NOT EXISTS checksum text", logger: logger)
    }

    /// The refusal of a database that applied `migration` with the checksum `recorded`.
    private static func changed(_ migration: Migration, recorded: String) -> StorageError {
        StorageError(
            code: .migrationChanged,
            message: """
                migration \(migration.version) (\(migration.name)) was applied with checksum \(recorded), \
                but this binary's text of it has checksum \(migration.checksum): an applied migration must \
                never change. Restore its file (Sources/Storage/Migrations/) as it was released and make \
                the change in a new migration.
                """
        )
    }

    private func apply(_ migration: Migration) async throws -> Bool {
        let recorded: String?
        do {
            // nil when this call applied it, else the checksum another migrator recorded ("" for none).
            recorded = try await client.withTransaction(logger: logger) { connection -> String? in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
                let rows = try await connection.query(
                    "SELECT coalesce(checksum, '') FROM schema_migration WHERE version = \(migration.version)",
                    logger: logger
                )
                for try await recorded in rows.decode(String.self) { return recorded }
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    """
                    INSERT INTO schema_migration (version, name, checksum)
                    VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                    """,
                    logger: logger
                )
                return nil
            }
        } catch {
            throw StorageError(
                code: .migration,
                message: "migration \(migration.version) (\(migration.name)) failed: \(String(reflecting: error))"
            )
        }
        guard let recorded else { return true }
        // Applied meanwhile by another migrator, which may have had another text.
        if !recorded.isEmpty, recorded != migration.checksum { throw Self.changed(migration, recorded: recorded) }
        return false
    }
}
