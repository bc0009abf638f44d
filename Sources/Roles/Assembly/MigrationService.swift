import Logging
import PostgresNIO
import Primitives
import ServiceLifecycle
import Storage

/// Applies the schema's migrations once at start, retrying with bounded backoff while the
/// database is unreachable, then opens ``gate``, writes the analysts' data (``AnalystSetup``, also
/// retried) and stays until shutdown.
///
/// The one place a long-running role migrates (migrations are idempotent and safe when several
/// processes start at once). `afterwards` runs once they are applied (e.g. `dev`'s banner).
public struct MigrationService: Service {
    let client: PostgresClient
    let logger: Logger
    let gate: StartupGate
    let analysts: AnalystSetup
    let afterwards: @Sendable () -> Void

    public init(
        client: PostgresClient, gate: StartupGate, analysts: AnalystSetup, logger: Logger,
        afterwards: @escaping @Sendable () -> Void = {}
    ) {
        self.client = client
        self.gate = gate
        self.analysts = analysts
        self.logger = logger
        self.afterwards = afterwards
    }

    public func run() async throws {
        // The schema first: it opens the gate, so the ingest never waits for the analysts' data.
        guard
            try await retrying(
                "migrations",
                { try await Migrator(client: client, logger: logger).migrate(SwitchboardSchema.migrations) })
        else { return }
        gate.open()
        guard
            try await retrying(
                "analyst calendar and business days", { try await analysts.apply(client: client, logger: logger) })
        else { return }
        afterwards()
        try? await gracefulShutdown()
    }

    /// Runs `step` until it succeeds, with bounded backoff; `false` when shutdown came first.
    ///
    /// - Throws: A changed migration (``StorageError/Code/migrationChanged``) at once: the role
    ///   refuses to start rather than retry what cannot succeed.
    private func retrying(_ name: String, _ step: () async throws -> Void) async throws -> Bool {
        var backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
        while true {
            do {
                try await step()
                return true
            } catch let error as StorageError where error.code == .migrationChanged {
                logger.critical("\(name) refused: \(error.message)")
                throw error
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return false }
                let delay = backoff.next()
                logger.warning("\(name) failed, retrying in \(delay): \(error)")
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// The schema's migrations, then the analysts' allow-list, calendar and business days.
    ///
    /// - Returns: The versions applied now (empty when the schema was current).
    @discardableResult
    public static func migrate(client: PostgresClient, analysts: AnalystSetup, logger: Logger) async throws -> [Int] {
        let applied = try await Migrator(client: client, logger: logger).migrate(SwitchboardSchema.migrations)
        try await analysts.apply(client: client, logger: logger)
        return applied
    }
}
