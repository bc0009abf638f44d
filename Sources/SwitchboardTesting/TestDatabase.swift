import Foundation
import Logging
import PostgresNIO
import Storage
import Synchronization

/// The PostgreSQL server the test script started (`scripts/test.sh`), read from the environment.
///
/// Without `SWITCHBOARD_TEST_DATABASE_URL` the database tests are disabled locally, but when `CI`
/// is set they run and fail: in CI a missing database is an error, never a silent skip.
public enum TestDatabase {
    public static let url = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_DATABASE_URL"]
    public static let isCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    /// Whether database tests run: a database is configured, or we are in CI (and will fail without one).
    public static let enabled = url != nil || isCI

    public static var logger: Logger {
        var logger = Logger(label: "test.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// The configured database, or a recorded failure.
    public static func configuration() throws -> DatabaseConfiguration {
        guard let url else {
            throw TestDatabaseMissing()
        }
        return try DatabaseConfiguration(url: url)
    }

    /// Creates a fresh database named after the test (dropped first if it exists) and runs `body`
    /// with a running client connected to it.
    public static func withFreshDatabase<T: Sendable>(
        _ name: String,
        _ body: @Sendable (PostgresClient, DatabaseConfiguration) async throws -> T
    ) async throws -> T {
        let base = try configuration()
        let database = "t_\(name)".lowercased()
        guard databasesInUse.withLock({ $0.insert(database).inserted }) else {
            // Its DROP … WITH (FORCE) would end the other test's sessions.
            throw TestDatabaseSetupFailed(
                detail: "database \(database) is in use by another test: give each test a name of its own")
        }
        defer { _ = databasesInUse.withLock { $0.remove(database) } }
        // The server's administration client stops once the database exists.
        try await running(base, step: "creating database \(database)") { admin in
            do {
                try await recreate(database, admin: admin)
            } catch {
                throw TestDatabaseSetupFailed(detail: String(reflecting: error))
            }
        }
        var configuration = base
        configuration.database = database
        return try await running(configuration, step: "a test in database \(database)") { client in
            try await body(client, configuration)
        }
    }

    /// The databases of ``withFreshDatabase(_:_:)`` calls in progress.
    private static let databasesInUse = Mutex<Set<String>>([])

    /// Runs `body` with a client for `configuration` running, then stops the client and waits for
    /// it: both ``StepWatchdog`` steps (with the client's pool events), so a test that never ends
    /// says whether it waits in its body or in the client's shutdown, and what the client did last.
    static func running<T: Sendable>(
        _ configuration: DatabaseConfiguration, step: String, _ body: (PostgresClient) async throws -> T
    ) async throws -> T {
        let recent = LogRing()
        var clientConfiguration = configuration.clientConfiguration
        // postgres-nio 1.33 can queue a lease behind a connection that is connecting or keeping
        // alive and, if that connection then closes, open no other until the next lease; a test
        // whose flow is sequential has none and would wait for good. A pool that keeps one
        // connection replaces the closed one, which serves the queued lease.
        clientConfiguration.options.minimumConnections = 1
        let client = PostgresClient(
            configuration: clientConfiguration,
            backgroundLogger: recent.logger(label: "test.postgres.\(configuration.database)"))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            await client.start(in: &group)
            let result: Result<T, any Error>
            do {
                result = .success(try await StepWatchdog.step(step, recent: recent) { try await body(client) })
            } catch {
                result = .failure(error)
            }
            group.cancelAll()
            await StepWatchdog.step("\(step): the client's shutdown", recent: recent) { try? await group.waitForAll() }
            return try result.get()
        }
    }
}

extension TestDatabase {
    /// Runs `body` with a running client for `configuration`.
    public static func withClient<T: Sendable>(
        _ configuration: DatabaseConfiguration,
        _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        try await running(configuration, step: "a client of \(configuration.database) on port \(configuration.port)") {
            try await body($0)
        }
    }
}

public struct TestDatabaseSetupFailed: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { "creating the test database failed: \(detail)" }
}

public struct TestDatabaseMissing: Error, CustomStringConvertible {
    public var description: String {
        "CI is set but SWITCHBOARD_TEST_DATABASE_URL is not: run the tests with scripts/test.sh (make test)"
    }
}

extension TestDatabase {
    /// Drops `database` (disconnecting its sessions) and creates it empty: the one bootstrap of a
    /// fresh database for the tests and the benchmarks.
    ///
    /// - Parameters:
    ///   - database: A lowercase SQL identifier (not quoted: test and bench names only).
    ///   - admin: A running client connected to another database of the server.
    public static func recreate(_ database: String, admin: PostgresClient) async throws {
        try await admin.query("DROP DATABASE IF EXISTS \(unescaped: database) WITH (FORCE)", logger: logger)
        try await admin.query("CREATE DATABASE \(unescaped: database)", logger: logger)
    }
}

extension TestDatabase {
    /// A login user the tests run a role as: a member of one of the schema's group roles, so a
    /// test's process has exactly the privileges a production login of that role has.
    public enum Login: String, Sendable, CaseIterable {
        /// A member of `switchboard_writer`: ingest, import and the maintenance commands.
        case writer = "switchboard_test_writer"
        /// A member of `switchboard_retention`.
        case retention = "switchboard_test_retention"
        /// A member of `switchboard_analyst`.
        case analyst = "switchboard_test_analyst"
        /// A member of `switchboard_staffing_reader`: `serve`'s staffing.
        case staffingReader = "switchboard_test_staffing_reader"

        /// The group role the login is a member of.
        public var group: String {
            switch self {
            case .writer: "switchboard_writer"
            case .retention: "switchboard_retention"
            case .analyst: "switchboard_analyst"
            case .staffingReader: "switchboard_staffing_reader"
            }
        }
    }

    /// Migrates the database of `client` as `switchboard migrate` does (the migrations, then the
    /// privileges file) and creates the test logins (``Login``) the first time.
    ///
    /// The test server trusts loopback connections, so the logins need no password.
    public static func migrate(_ client: PostgresClient) async throws {
        try await Migrator(client: client, logger: logger)
            .migrateSwitchboardSchema()
        for login in Login.allCases {
            // Roles are cluster-wide and the tests run in parallel: another test may create it first.
            try await client.query(
                PostgresQuery(
                    unsafeSQL: """
                        DO $$
                        BEGIN
                            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(login.rawValue)') THEN
                                CREATE ROLE \(login.rawValue) LOGIN IN ROLE \(login.group);
                            END IF;
                        EXCEPTION WHEN duplicate_object OR unique_violation THEN
                            NULL;
                        END
                        $$
                        """),
                logger: logger)
        }
    }

    /// The libpq URL of `configuration`'s database, as `login` (its own user when `nil`).
    public static func url(_ configuration: DatabaseConfiguration, as login: Login? = nil) -> String {
        "postgres://\(login?.rawValue ?? configuration.username)@\(configuration.host):\(configuration.port)/\(configuration.database)"
    }
}
