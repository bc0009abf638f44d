import Logging
import PostgresNIO

/// Applies versioned migrations, idempotently, and safely when several workers start at once.
///
/// Every run takes a transaction-scoped advisory lock, so concurrent migrators queue up; each
/// migration runs in its own transaction together with its row in `schema_migration`, so a
/// failed migration leaves the database at the previous version.
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

    /// Applies every migration of `migrations` newer than the database's version.
    ///
    /// - Returns: The versions applied by this call (empty when the schema was current).
    /// - Throws: ``StorageError`` `.migration` naming the version that failed and why.
    @discardableResult
    public func migrate(_ migrations: [Migration]) async throws -> [Int] {
        let ordered = migrations.sorted { $0.version < $1.version }
        var applied: [Int] = []
        for migration in ordered {
            let didApply = try await apply(migration)
            if didApply { applied.append(migration.version) }
        }
        if !applied.isEmpty {
            logger.info("schema migrated", metadata: ["versions": "\(applied)"])
        }
        return applied
    }

    /// The highest applied version, or 0 for an empty database.
    public func currentVersion() async throws -> Int {
        try await ensureVersionTable()
        let rows = try await client.query("SELECT coalesce(max(version), 0) FROM schema_migration", logger: logger)
        for try await version in rows.decode(Int.self) { return version }
        return 0
    }

    private func ensureVersionTable() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                logger: logger
            )
        }
    }

    private func apply(_ migration: Migration) async throws -> Bool {
        try await ensureVersionTable()
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
                let rows = try await connection.query(
                    "SELECT 1 FROM schema_migration WHERE version = \(migration.version)",
                    logger: logger
                )
                for try await _ in rows { return false }
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                )
                return true
            }
        } catch {
            throw StorageError(
                code: .migration,
                message: "migration \(migration.version) (\(migration.name)) failed: \(String(reflecting: error))"
            )
        }
    }
}
