import Logging
import PostgresNIO

/// A transaction on one connection in which every wait ends (see ``WriteConnections`` for why
/// postgres-nio's own `withTransaction` is not used).
enum Transaction {
    /// Runs `body` between `BEGIN` and `COMMIT` on `connection`.
    ///
    /// Any failure closes the connection instead of sending `ROLLBACK`: PostgreSQL rolls back the
    /// transaction of a session that ended, while a `ROLLBACK` sent on a connection that has just
    /// closed could be lost. It returns once the connection is closed, so a pool that lent it
    /// has dropped it by then and cannot lend it again. When the failure came after `COMMIT` was sent (a timeout, the server
    /// going away), the transaction may have committed all the same and the caller cannot tell:
    /// the offsets' compare-and-set (``OffsetStore``) recognizes such a batch when it is retried.
    ///
    /// - Throws: Whatever `body` throws, connection and statement errors.
    static func run<T: Sendable>(
        on connection: PostgresConnection,
        logger: Logger,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            try await statement("BEGIN", on: connection, logger: logger)
            let value = try await body(connection)
            try await statement("COMMIT", on: connection, logger: logger)
            return value
        } catch {
            await connection.closeAndWait()
            throw error
        }
    }

    /// Runs one statement on `connection` and collects its rows.
    ///
    /// It ends when the statement does, when the connection closes, or, since cancelling the
    /// calling task closes the connection, when the caller is cancelled.
    ///
    /// - Throws: `PSQLError` from the server or the connection; ``StorageError`` `.connectionClosed`
    ///   when the connection was closed before the statement could be sent.
    @discardableResult
    static func statement(
        _ query: PostgresQuery,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> PostgresQueryResult {
        let eventLoop = connection.eventLoop
        let result = eventLoop.flatSubmit { () -> EventLoopFuture<PostgresQueryResult> in
            // On the event loop, an open channel still has its handlers: the connection's state
            // machine queues the statement and fails it if the connection closes later. A closed
            // channel has lost its handlers and would drop the statement without an answer.
            guard !connection.isClosed else {
                return eventLoop.makeFailedFuture(
                    StorageError(
                        code: .connectionClosed, message: "the connection closed before the statement was sent")
                )
            }
            return connection.query(query, logger: logger)
        }
        return try await withTaskCancellationHandler {
            try await result.get()
        } onCancel: {
            connection.closeChannel()
        }
    }
}

extension IngestPipeline {
    /// Returns once every transaction committed before it is on disk: the barrier that ends a
    /// run whose lanes committed with `synchronous_commit = off` and that has no offsets to
    /// re-read from (an import).
    ///
    /// A transaction that takes a transaction id writes a commit record, and a synchronous commit
    /// waits until the WAL is flushed up to that record, which includes every earlier commit.
    ///
    /// - Throws: Connection and statement errors (the commits may then not be durable).
    public static func flushCommits(client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await Transaction.run(on: connection, logger: logger) { connection in
                try await Transaction.statement("SET LOCAL synchronous_commit = on", on: connection, logger: logger)
                try await Transaction.statement("SELECT txid_current()", on: connection, logger: logger)
            }
        }
    }
}

extension PostgresConnection {
    /// Closes the connection without waiting (PostgreSQL ends the session and rolls back its open
    /// transaction).
    ///
    /// The connection is kept alive until the close completes: postgres-nio asserts that a
    /// connection is closed when it is deinitialized, and callers drop theirs right away.
    func closeChannel() {
        let _: EventLoopFuture<Void> = close()
        closeFuture.whenComplete { _ in withExtendedLifetime(self) {} }
    }

    /// Closes the connection and waits until it is closed: by then a pool that lent it has seen
    /// the close (its callback was registered first) and will not lend it again.
    func closeAndWait() async {
        closeChannel()
        try? await closeFuture.get()
    }
}
