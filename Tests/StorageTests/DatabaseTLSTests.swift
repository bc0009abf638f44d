import Foundation
import Logging
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// `sslmode` and `sslrootcert` as libpq defines them, on both paths that open a connection in
/// the Storage adapter: the pool (``DatabaseConfiguration/clientConfiguration``) and the ingest's
/// single write connections (``DatabaseConfiguration/connectionConfiguration()``). The process
/// paths (migrate, import with its analyst setup) are in RolesTests' `DatabaseTLSProcessTests`.
@Suite("PostgreSQL TLS: every connection path honours sslmode", .enabled(if: TestDatabase.enabled))
struct DatabaseTLSTests {
    /// How a connection attempt ended: the server's view of the session, or the failure.
    enum Outcome: Equatable, CustomStringConvertible {
        case connected(user: String, ssl: Bool)
        case refused(String)

        var isRefused: Bool { if case .refused = self { true } else { false } }
        var description: String {
            switch self {
            case .connected(let user, let ssl): "connected as \(user), ssl \(ssl)"
            case .refused(let reason): "refused: \(reason)"
            }
        }
    }

    enum Path: CaseIterable, CustomStringConvertible {
        case pool, writeConnection
        var description: String { self == .pool ? "pool" : "write connection" }
    }

    /// Connects over `path` with `url` and asks the server for the session's user and TLS state.
    func connect(_ path: Path, _ url: String) async -> Outcome {
        do {
            let configuration = try DatabaseConfiguration(url: url)
            return try await withDeadline(.seconds(10)) {
                switch path {
                case .pool:
                    let client = PostgresClient(
                        configuration: configuration.clientConfiguration, backgroundLogger: TestDatabase.logger)
                    return try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { await client.run() }
                        defer { group.cancelAll() }
                        let session = try await TLSTestServer.session(client)
                        return .connected(user: session.user, ssl: session.ssl)
                    }
                case .writeConnection:
                    let connection = try await PostgresConnection.connect(
                        configuration: try configuration.connectionConfiguration(), id: 1,
                        logger: TestDatabase.logger)
                    let session: (user: String, ssl: Bool)
                    do {
                        session = try await TLSTestServer.session(connection)
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try await connection.close()
                    return .connected(user: session.user, ssl: session.ssl)
                }
            }
        } catch {
            return .refused(String(describing: error))
        }
    }

    init() async throws {
        try await TLSTestServer.ensureRole()
    }

    @Test("the test server has its CA and admits switchboard_tls over TLS only")
    func serverSetUp() async throws {
        #expect(FileManager.default.isReadableFile(atPath: TLSTestServer.caFile), "scripts/test.sh sets up TLS")
        for path in Path.allCases {
            let plain = await connect(
                path, try TLSTestServer.url(user: "postgres", host: "127.0.0.1", "sslmode=disable"))
            #expect(plain == .connected(user: "postgres", ssl: false), "\(path): disable is plain text")
            let refused = await connect(path, try TLSTestServer.url(host: "127.0.0.1", "sslmode=disable"))
            #expect(refused.isRefused, "\(path): the server refuses switchboard_tls without TLS: \(refused)")
        }
    }

    @Test("require encrypts without verifying the server, as libpq does", arguments: Path.allCases)
    func require(path: Path) async throws {
        let outcome = await connect(path, try TLSTestServer.url(host: "127.0.0.1", "sslmode=require"))
        #expect(outcome == .connected(user: TLSTestServer.role, ssl: true), "\(path): \(outcome)")
    }

    @Test("prefer takes TLS when the server offers it", arguments: Path.allCases)
    func prefer(path: Path) async throws {
        let outcome = await connect(path, try TLSTestServer.url(host: "127.0.0.1", "sslmode=prefer"))
        #expect(outcome == .connected(user: TLSTestServer.role, ssl: true), "\(path): \(outcome)")
    }

    @Test("verify-ca checks the chain, not the name", arguments: Path.allCases)
    func verifyCA(path: Path) async throws {
        let ca = TLSTestServer.caFile
        let outcome = await connect(
            path, try TLSTestServer.url(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(ca)"))
        #expect(outcome == .connected(user: TLSTestServer.role, ssl: true), "\(path): \(outcome)")
    }

    @Test(
        "verify-full checks the chain and the host name; an address the certificate lacks is refused",
        arguments: Path.allCases)
    func verifyFull(path: Path) async throws {
        let ca = TLSTestServer.caFile
        let good = await connect(
            path, try TLSTestServer.url(host: "localhost", "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(good == .connected(user: TLSTestServer.role, ssl: true), "\(path): \(good)")
        let wrongHost = await connect(
            path, try TLSTestServer.url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(wrongHost.isRefused, "\(path): the certificate names localhost, not 127.0.0.1: \(wrongHost)")
    }

    @Test("a CA that did not sign the server's certificate is refused", arguments: Path.allCases)
    func wrongCA(path: Path) async throws {
        let wrong = TLSTestServer.wrongCAFile
        for query in ["sslmode=verify-ca&sslrootcert=\(wrong)", "sslmode=verify-full&sslrootcert=\(wrong)"] {
            let outcome = await connect(path, try TLSTestServer.url(host: "localhost", query))
            #expect(outcome.isRefused, "\(path), \(query): \(outcome)")
        }
        let systemStore = await connect(path, try TLSTestServer.url(host: "localhost", "sslmode=verify-full"))
        #expect(systemStore.isRefused, "\(path): the system store does not know the private CA: \(systemStore)")
    }

    @Test("bad settings are refused with the accepted values")
    func badSettings() {
        #expect(throws: StorageError.self) { try DatabaseConfiguration(url: "postgres://u@h/d?sslmode=verify") }
        #expect(throws: StorageError.self) {
            try DatabaseConfiguration(url: "postgres://u@h/d?sslmode=verify-full&sslrootcert=/nonexistent.pem")
        }
    }
}
