import Foundation
import Logging
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// `sslmode` against the test server's TLS (scripts/lib.sh gives it a throwaway CA whose
/// server certificate names localhost only).
@Suite("PostgreSQL TLS: sslmode and sslrootcert as libpq names them", .enabled(if: TestDatabase.enabled))
struct DatabaseTLSTests {
    static var caFile: String {
        ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES_CA"] ?? "/nonexistent/ca.pem"
    }

    /// Whether `SELECT ssl FROM pg_stat_ssl` over a client for `url` answers within 5 s, and over TLS.
    func connectsOverTLS(_ url: String) async throws -> Bool {
        let configuration = try DatabaseConfiguration(url: url)
        let client = PostgresClient(
            configuration: configuration.clientConfiguration, backgroundLogger: TestDatabase.logger)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                return try await withDeadline(.seconds(5)) {
                    let rows = try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                    for try await ssl in rows.decode(Bool.self) { return ssl }
                    return false
                }
            } catch {
                return false
            }
        }
    }

    func url(host: String, _ query: String) throws -> String {
        let base = try TestDatabase.configuration()
        return "postgres://\(base.username)@\(host):\(base.port)/\(base.database)?\(query)"
    }

    @Test("the test server has its CA")
    func caPresent() {
        #expect(FileManager.default.isReadableFile(atPath: Self.caFile), "scripts/test.sh sets up TLS")
    }

    @Test("verify-full with the CA: TLS to localhost; refused for an address the certificate lacks")
    func verifyFull() async throws {
        #expect(try await connectsOverTLS(url(host: "localhost", "sslmode=verify-full&sslrootcert=\(Self.caFile)")))
        #expect(
            try await !connectsOverTLS(url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(Self.caFile)")),
            "the certificate names localhost, not 127.0.0.1")
    }

    @Test("verify-ca checks the chain, not the name; without the CA the system store refuses it")
    func verifyCA() async throws {
        #expect(try await connectsOverTLS(url(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(Self.caFile)")))
        #expect(try await !connectsOverTLS(url(host: "localhost", "sslmode=verify-full")), "a private CA is unknown")
    }

    @Test("require encrypts without verifying, as libpq does")
    func require() async throws {
        #expect(try await connectsOverTLS(url(host: "127.0.0.1", "sslmode=require")))
    }

    @Test("bad settings are refused with the accepted values")
    func badSettings() {
        #expect(throws: StorageError.self) { try DatabaseConfiguration(url: "postgres://u@h/d?sslmode=verify") }
        #expect(throws: StorageError.self) {
            try DatabaseConfiguration(url: "postgres://u@h/d?sslmode=verify-full&sslrootcert=/nonexistent.pem")
        }
    }
}
