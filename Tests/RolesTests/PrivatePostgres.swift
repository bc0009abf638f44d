import Foundation
import Storage
import SwitchboardTesting

/// A PostgreSQL server of a test's own, in a folder of its own, started and stopped with
/// scripts/lib.sh (as scripts/test.sh starts the shared one), so that a test can take it away.
struct PrivatePostgres: Sendable {
    let directory: URL
    let port: Int
    let database: String

    /// Creates the folder and picks a port; nothing runs until ``start()``.
    init(name: String, database: String) throws {
        directory = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_WORKDIR"] ?? "/tmp"
        )
        .appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = LoopbackSocket.freePort()
        self.database = database
    }

    private var lib: String { Repository.root.appendingPathComponent("scripts/lib.sh").path }

    /// Starts the server (creating the cluster the first time) and returns once it accepts
    /// connections (`pg_ctl start -w`).
    func start() async throws -> Bool {
        try await ChildProcess.shell("source '\(lib)' && start_postgres '\(directory.path)/pg' \(port) fast") == 0
    }

    /// Stops the server (`pg_ctl stop -m fast`: sessions are ended, open transactions roll back).
    @discardableResult
    func stop() async throws -> Bool {
        try await ChildProcess.shell("source '\(lib)' && stop_postgres '\(directory.path)/pg'") == 0
    }

    /// Stops the server, blocking: for `defer` clean-ups only.
    func stopBlocking() {
        _ = try? ChildProcess.shellBlocking("source '\(lib)' && stop_postgres '\(directory.path)/pg'")
    }

    /// Runs `sql` with psql as the superuser in ``database``; `true` when it succeeded.
    func psql(_ sql: String, database: String? = nil) async throws -> Bool {
        let escaped = sql.replacingOccurrences(of: "'", with: "'\\''")
        return try await ChildProcess.shell(
            "psql -h 127.0.0.1 -p \(port) -U postgres -d \(database ?? self.database) -v ON_ERROR_STOP=1 -qc '\(escaped)'"
        ) == 0
    }

    /// Starts psql running `sql` in the background (it ends with its session, at the latest when
    /// the server stops).
    func psqlInBackground(_ sql: String) async throws {
        let escaped = sql.replacingOccurrences(of: "'", with: "'\\''")
        try await ChildProcess.shell(
            "nohup psql -h 127.0.0.1 -p \(port) -U postgres -d \(database) -qc '\(escaped)' >/dev/null 2>&1 &"
        )
    }

    /// The URL a worker connects with.
    var url: String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// The configuration a test's own client connects with.
    var configuration: DatabaseConfiguration {
        DatabaseConfiguration(host: "127.0.0.1", port: port, username: "postgres", database: database)
    }
}
