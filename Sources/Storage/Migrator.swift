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
    /// Then, in one transaction under the lock, the repeatable objects whose text changed
    /// (``applyRepeatables(_:on:)``) and the privileges.
    ///
    /// - Parameters:
    ///   - repeatables: The schema's functions and views (``SwitchboardSchema/repeatables``), in
    ///     dependency order; empty: none applied.
    ///   - privileges: The statements of the privileges file (``SwitchboardSchema/privileges``),
    ///     applied on every call: they revoke and grant each group role's privileges, so the
    ///     database always holds exactly the file's (empty: none applied).
    @discardableResult
    public func migrate(
        _ migrations: [Migration], repeatables: [RepeatableObject] = [], privileges: [String] = []
    ) async throws -> [Int] {
        try await migrateReporting(migrations, repeatables: repeatables, privileges: privileges).versions
    }

    /// ``migrate(_:repeatables:privileges:)``, returning the versions applied and the repeatable
    /// objects applied (by name, in the order applied).
    public func migrateReporting(
        _ migrations: [Migration], repeatables: [RepeatableObject] = [], privileges: [String] = []
    ) async throws -> (versions: [Int], repeatables: [String]) {
        let ordered = migrations.sorted { $0.version < $1.version }
        // A version recorded with its checksum needs no transaction of its own.
        let recorded = try await recordedVersions(ordered)
        var applied: [Int] = []
        let pending = ordered.filter { !recorded.contains($0.version) }
        // Data migrations that need the functions' current text wait for the schema's files
        // (when there are none to apply, they run in order with the others).
        let waiting = repeatables.isEmpty ? [] : pending.filter(\.runsAfterSchemaFiles)
        for migration in pending where !waiting.contains(migration) {
            let didApply = try await apply(migration)
            if didApply { applied.append(migration.version) }
        }
        var objects: [String] = []
        if !repeatables.isEmpty || !privileges.isEmpty {
            objects = try await applySchema(repeatables, privileges: privileges)
        }
        if !objects.isEmpty {
            logger.info("schema functions and views applied", metadata: ["objects": "\(objects)"])
        }
        for migration in waiting {
            let didApply = try await apply(migration)
            if didApply { applied.append(migration.version) }
        }
        if !applied.isEmpty {
            logger.info("schema migrated", metadata: ["versions": "\(applied)"])
        }
        return (applied, objects)
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
    ///
    /// Each of `repeatables` must have been applied once (its file recorded in `schema_object`);
    /// its text is not compared, as a newer binary's may differ.
    public func verify(_ migrations: [Migration], repeatables: [RepeatableObject] = []) async throws {
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
        guard !repeatables.isEmpty else { return }
        let paths: Set<String>
        do {
            paths = Set(
                try await client.query("SELECT path FROM schema_object", logger: logger).collect()
                    .map { try $0.decode(String.self) })
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
            paths = []
        }
        if let missing = repeatables.first(where: { !paths.contains($0.path) }) {
            throw StorageError(
                code: .schemaBehind,
                message: """
                    the schema is behind this binary: Sources/Storage/Schema/\(missing.path) is not applied; run \
                    `switchboard migrate` as the schema's owner first
                    """
            )
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

    /// The changed repeatable objects, then the privileges file's statements, in one transaction
    /// under the migration lock: no session sees a re-created function without its grants.
    ///
    /// - Returns: The names of the objects applied.
    private func applySchema(_ repeatables: [RepeatableObject], privileges: [String]) async throws -> [String] {
        let applied: [String]
        do {
            applied = try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
                let applied = try await applyRepeatables(repeatables, on: connection)
                for statement in privileges {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                return applied
            }
        } catch let error as PostgresTransactionError {
            if let storage = error.closureError as? StorageError { throw storage }
            throw StorageError(
                code: .migration,
                message:
                    "applying the schema's functions, views and privileges failed: \(StorageError.summary(of: error.closureError ?? error.beginError ?? error.commitError ?? error))"
            )
        } catch {
            throw StorageError(
                code: .migration,
                message:
                    "applying the schema's functions, views and privileges failed: \(StorageError.summary(of: error))")
        }
        let missing = try await missingGroupRoles()
        if !missing.isEmpty {
            logger.warning(
                "group roles missing, their privileges are not granted: ask an administrator to create them (deploy/docs/database-roles.md) and run migrate again",
                metadata: ["roles": "\(missing.joined(separator: ","))"])
        }
        return applied
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

    /// Applies, on `connection` (in the caller's transaction), each of `repeatables` whose text
    /// differs from the one `schema_object` records, and records it.
    ///
    /// A function is replaced in place. A view is dropped and created again, and so is every
    /// object that depends on it in the catalogs (a view over it, a function returning its rows),
    /// which must be a repeatable object too; they are dropped in reverse order and created in
    /// `repeatables`' order.
    ///
    /// - Returns: The names of the objects applied, in the order applied.
    /// - Throws: ``StorageError`` `.migration` naming an object that fails, or a dependant that is
    ///   not in a repeatable file.
    func applyRepeatables(_ repeatables: [RepeatableObject], on connection: PostgresConnection) async throws -> [String]
    {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_object (
                path text PRIMARY KEY,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            logger: logger)
        guard !repeatables.isEmpty else { return [] }
        var recorded: [String: String] = [:]
        let rows = try await connection.query("SELECT path, checksum FROM schema_object", logger: logger)
        for try await (path, checksum) in rows.decode((String, String).self) { recorded[path] = checksum }
        let changed = Set(repeatables.filter { recorded[$0.path] != $0.checksum }.map(\.name))
        guard !changed.isEmpty else { return [] }
        let byName = Dictionary(uniqueKeysWithValues: repeatables.map { ($0.name, $0) })
        // What must be dropped: the changed views and, transitively, what depends on them.
        var dropped = Set(changed.filter { byName[$0]?.kind == .view })
        var frontier = dropped
        while !frontier.isEmpty {
            let dependants = try await Self.dependants(of: Array(frontier), on: connection, logger: logger)
            for name in dependants where byName[name] == nil {
                throw StorageError(
                    code: .migration,
                    message:
                        "\(name) depends on the view(s) \(frontier.sorted().joined(separator: ", ")) and is not in a file of Sources/Storage/Schema/: give it one, or drop it in a versioned migration"
                )
            }
            frontier = dependants.subtracting(dropped)
            dropped.formUnion(frontier)
        }
        let applied = repeatables.filter { changed.contains($0.name) || dropped.contains($0.name) }
        for object in applied.reversed() where dropped.contains(object.name) {
            let statement: String
            switch object.kind {
            case .view:
                statement = "DROP VIEW IF EXISTS \(object.name)"
            case .function:
                let rows = try await connection.query(
                    """
                    SELECT oid::regprocedure::text FROM pg_proc
                    WHERE pronamespace = 'public'::regnamespace AND proname = \(object.name)
                    """,
                    logger: logger)
                var signatures: [String] = []
                for try await signature in rows.decode(String.self) { signatures.append(signature) }
                guard !signatures.isEmpty else { continue }
                statement = "DROP FUNCTION \(signatures.joined(separator: ", "))"
            }
            try await run(statement, for: object, on: connection)
        }
        for object in applied {
            for statement in object.statements { try await run(statement, for: object, on: connection) }
            try await connection.query(
                """
                INSERT INTO schema_object (path, checksum) VALUES (\(object.path), \(object.checksum))
                ON CONFLICT (path) DO UPDATE SET checksum = excluded.checksum, applied_at = now()
                """,
                logger: logger)
        }
        return applied.map(\.name)
    }

    private func run(_ statement: String, for object: RepeatableObject, on connection: PostgresConnection) async throws
    {
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        } catch {
            throw StorageError(
                code: .migration,
                message: "Sources/Storage/Schema/\(object.path) failed: \(StorageError.summary(of: error))")
        }
    }

    /// The views and functions of the schema that depend, in the catalogs, on the views or
    /// functions named `names`: views whose query uses them, functions whose signature uses a
    /// view's row type.
    static func dependants(of names: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> Set<String>
    {
        let rows = try await connection.query(
            """
            WITH target AS (
                SELECT 'pg_class'::regclass AS class, c.oid FROM pg_class c
                WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(\(names))
                UNION ALL
                SELECT 'pg_proc'::regclass, p.oid FROM pg_proc p
                WHERE p.pronamespace = 'public'::regnamespace AND p.proname = ANY(\(names))
            )
            SELECT DISTINCT v.relname::text FROM pg_depend d
            JOIN target t ON d.refclassid = t.class AND d.refobjid = t.oid
            JOIN pg_rewrite r ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
            JOIN pg_class v ON v.oid = r.ev_class
            WHERE v.oid <> d.refobjid AND v.relnamespace = 'public'::regnamespace
            UNION
            SELECT DISTINCT p.proname::text FROM pg_depend d
            JOIN pg_class c ON d.refclassid = 'pg_type'::regclass AND d.refobjid = c.reltype
            JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
            WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(\(names))
            """,
            logger: logger)
        var found = Set<String>()
        for try await name in rows.decode(String.self) { found.insert(name) }
        return found
    }
}
