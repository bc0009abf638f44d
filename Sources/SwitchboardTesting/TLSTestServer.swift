import Foundation
import PostgresNIO
import Storage

/// The test server's TLS (scripts/lib.sh): a throwaway CA whose server certificate names
/// `localhost` only, and the role `switchboard_tls`, which `pg_hba.conf` lets in over TLS only.
///
/// A connection path that reaches the server as `switchboard_tls` has used TLS, whatever it
/// reports about itself; one that reaches it as `postgres` with `sslmode=disable` shows the plain
/// path still works.
public enum TLSTestServer {
    /// The role the server admits over TLS only.
    public static let role = "switchboard_tls"

    /// The test CA's certificate (`SWITCHBOARD_TEST_POSTGRES_CA`).
    public static var caFile: String {
        ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES_CA"] ?? "/nonexistent/ca.pem"
    }

    /// A CA bundle that did not sign the server's certificate: the system's store.
    public static let wrongCAFile = "/etc/ssl/certs/ca-certificates.crt"

    /// Creates ``role`` (a superuser, so it can migrate) unless it exists.
    ///
    /// Suites call this at once from parallel tests: a transaction-scoped advisory lock makes the
    /// check and the creation one step, so a second caller waits and then finds the role (without
    /// it, a role committed between another caller's check and its `CREATE ROLE` fails that call
    /// with `42710 duplicate_object`).
    ///
    /// - Throws: ``TestDatabaseSetupFailed`` with the server's or the pool's full error.
    public static func ensureRole() async throws {
        do {
            _ = try await TestDatabase.withClient(try TestDatabase.configuration()) { client in
                try await client.query(
                    """
                    DO $$ BEGIN
                        PERFORM pg_advisory_xact_lock(hashtext('switchboard_tls role'));
                        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'switchboard_tls') THEN
                            CREATE ROLE switchboard_tls LOGIN SUPERUSER;
                        END IF;
                    END $$
                    """, logger: TestDatabase.logger)
            }
        } catch let error as PSQLError {
            throw TestDatabaseSetupFailed(detail: "creating the role \(role): \(String(reflecting: error))")
        }
    }

    /// A URL of the test server for `user` at `host` with the query `query` (e.g. `sslmode=require`).
    public static func url(
        user: String = role, host: String, database: String? = nil, _ query: String
    ) throws -> String {
        let base = try TestDatabase.configuration()
        return "postgres://\(user)@\(host):\(base.port)/\(database ?? base.database)?\(query)"
    }

    /// The settings of a connection as the server sees them: `(user, ssl)`, queried through `client`.
    public static func session(_ client: PostgresClient) async throws -> (user: String, ssl: Bool) {
        let rows = try await client.query(
            "SELECT current_user::text, ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            logger: TestDatabase.logger)
        for try await (user, ssl) in rows.decode((String, Bool).self) { return (user, ssl) }
        return ("", false)
    }

    /// The same, over a single connection.
    public static func session(_ connection: PostgresConnection) async throws -> (user: String, ssl: Bool) {
        let rows = try await connection.query(
            "SELECT current_user::text, ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            logger: TestDatabase.logger)
        for try await (user, ssl) in rows.decode((String, Bool).self) { return (user, ssl) }
        return ("", false)
    }
}
