import Logging
import PostgresNIO
import Synchronization

/// The connections the ingest writes its batches on: its own, outside `PostgresClient`'s pool.
///
/// Two properties of postgres-nio 1.33 decide this (either would stall a worker after an outage):
/// - Its statements do not honour task cancellation, and a statement sent on a connection that
///   has just closed is lost without an answer: once NIO has removed the closed channel's
///   handlers, the write is dropped together with the statement's promise, and the caller waits
///   forever. `withTransaction` sends `ROLLBACK` on exactly such a connection when the server
///   went away in the middle of a transaction. Here a statement is handed to the connection on
///   its event loop and only while the channel is open, so the connection's handler fails it when
///   the connection closes later; and cancelling the caller closes the connection
///   (``Transaction``). A write's deadline therefore always ends it.
/// - The pool backs off failed connection attempts by 100 ms × 1.25ⁿ, up to a minute, and after a
///   minute of failures it fails every request until its next attempt: after a long outage it
///   reconnects up to a minute late. These connections are opened when a write needs one, so the
///   writer's own retry (``IngestPipeline/Configuration/maximumBackoff``) decides how soon the
///   first write follows the database's return.
///
/// Connections are reused while they work and closed after any failure. A session whose
/// connection was closed while its statement still ran (a timeout) lives on in the server until
/// that statement ends: before the next transaction, such sessions are terminated (they are
/// found by their `application_name`, unique to each connection), so abandoned attempts do not
/// pile up or hold their locks while the retry waits.
final class WriteConnections: Sendable {
    private let database: DatabaseConfiguration
    private let logger: Logger
    /// Distinguishes this process's sessions from every other's in `pg_stat_activity`.
    private let instance = String(UInt32.random(in: .min ... .max), radix: 16)
    private let state = Mutex(State())

    private struct State {
        var idle: [Connection] = []
        var nextID = 1
        var configuration: PostgresConnection.Configuration?
        /// `application_name`s of connections closed after a failure, whose sessions may live on.
        var abandoned: [String] = []
    }

    /// A connection and the `application_name` of its session.
    private struct Connection: Sendable {
        var connection: PostgresConnection
        var name: String
    }

    /// Run-time parameters every session starts with (sent in the startup message).
    private let sessionParameters: [(String, String)]

    /// Creates an empty set; connections to `database` are opened when needed, with
    /// `sessionParameters` set for their sessions.
    init(database: DatabaseConfiguration, sessionParameters: [(String, String)] = [], logger: Logger) {
        self.database = database
        self.sessionParameters = sessionParameters
        self.logger = logger
    }

    /// Runs `body` in a transaction on a connection of the set (an idle one, or a new one).
    ///
    /// - Throws: Connection and statement errors, and whatever `body` throws; the transaction is
    ///   then rolled back (its connection closed).
    func withTransaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let session = try await checkOut()
        do {
            await endAbandonedSessions(on: session.connection)
            let value = try await Transaction.run(on: session.connection, logger: logger, body)
            checkIn(session)
            return value
        } catch {
            session.connection.closeChannel()
            state.withLock { $0.abandoned.append(session.name) }
            throw error
        }
    }

    deinit { closeIdle() }

    /// Closes the idle connections (the pipeline stopped).
    func closeIdle() {
        let idle = state.withLock { state in
            defer { state.idle = [] }
            return state.idle
        }
        for session in idle { session.connection.closeChannel() }
    }

    private func checkOut() async throws -> Connection {
        let (reused, id, cached) = state.withLock {
            state -> (Connection?, Int, PostgresConnection.Configuration?) in
            while let session = state.idle.popLast() {
                if !session.connection.isClosed { return (session, 0, nil) }
            }
            defer { state.nextID += 1 }
            return (nil, state.nextID, state.configuration)
        }
        if let reused { return reused }
        var configuration = try cached ?? makeConfiguration()
        let name = "switchboard ingest \(instance)/\(id)"
        configuration.options.additionalStartupParameters.append(("application_name", name))
        configuration.options.additionalStartupParameters += sessionParameters
        let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        return Connection(connection: connection, name: name)
    }

    private func checkIn(_ session: Connection) {
        guard !session.connection.isClosed else { return }
        state.withLock { $0.idle.append(session) }
    }

    /// Terminates the sessions of connections closed after a failure, if they still run.
    ///
    /// The abandoned transactions never committed (their `COMMIT` was not sent), or committed
    /// before they were abandoned; either way the offsets' compare-and-set keeps the retry
    /// correct. Terminating them only keeps them from holding locks and connection slots, so a
    /// failure here is logged and otherwise ignored.
    private func endAbandonedSessions(on connection: PostgresConnection) async {
        let names = state.withLock { state in
            defer { state.abandoned = [] }
            return state.abandoned
        }
        guard !names.isEmpty else { return }
        var column = ArrayColumn<String>()
        for name in names { column.append(name) }
        do {
            let ended = try await Transaction.statement(
                """
                SELECT pid FROM pg_stat_activity
                WHERE application_name = ANY(\(column)) AND pg_terminate_backend(pid)
                """,
                on: connection,
                logger: logger
            ).count
            if ended > 0 {
                logger.notice("terminated the sessions of abandoned write attempts", metadata: ["sessions": "\(ended)"])
            }
        } catch {
            logger.warning("could not terminate the sessions of abandoned write attempts: \(error)")
        }
    }

    /// The connection configuration (the TLS context is created once, on first use).
    private func makeConfiguration() throws -> PostgresConnection.Configuration {
        let configuration = try database.connectionConfiguration()
        state.withLock { $0.configuration = configuration }
        return configuration
    }
}
