import Logging
import PostgresNIO
import Primitives
import ServiceLifecycle
import Storage

/// Readies the schema once at start, retrying with bounded backoff while the database is
/// unreachable, then opens ``gate``, writes the analysts' data (``AnalystSetup``, also retried;
/// none for a role that may only read, such as `serve`'s staffing reader) and stays until shutdown.
///
/// A role that does not own the schema (``Mode/verify``: `ingest`) only checks that every
/// migration is applied and refuses to start when one is not; `dev`, which runs everything as one
/// administrator, migrates (``Mode/migrate``; migrations are idempotent and safe when several
/// processes start at once). `afterwards` runs once the schema is ready (e.g. `dev`'s banner).
public struct MigrationService: Service {
    /// What the service does with the schema.
    public enum Mode: Sendable {
        /// Apply the migrations and the privileges file: the schema's owner.
        case migrate
        /// Check that the migrations are applied, changing nothing: every other role.
        case verify
    }

    let client: PostgresClient
    let logger: Logger
    let gate: StartupGate
    let analysts: AnalystSetup?
    let mode: Mode
    let afterwards: @Sendable () -> Void

    /// - Parameter analysts: What is written for the analysts once the schema is ready; `nil`
    ///   writes nothing (a read-only role).
    public init(
        client: PostgresClient, gate: StartupGate, analysts: AnalystSetup?, mode: Mode, logger: Logger,
        afterwards: @escaping @Sendable () -> Void = {}
    ) {
        self.client = client
        self.gate = gate
        self.analysts = analysts
        self.mode = mode
        self.logger = logger
        self.afterwards = afterwards
    }

    public func run() async throws {
        // The schema first: it opens the gate, so the ingest never waits for the analysts' data.
        let migrator = Migrator(client: client, logger: logger)
        let step: () async throws -> Void =
            switch mode {
            case .migrate:
                {
                    try await migrator.migrateSwitchboardSchema()
                }
            case .verify:
                { try await migrator.verifySwitchboardSchema() }
            }
        guard try await retrying(mode == .migrate ? "migrations" : "schema check", step) else { return }
        gate.open()
        if let analysts {
            guard
                try await retrying(
                    "analyst calendar and business days", { try await analysts.apply(client: client, logger: logger) })
            else { return }
        }
        afterwards()
        try? await gracefulShutdown()
    }

    /// Runs `step` until it succeeds, with bounded backoff; `false` when shutdown came first.
    ///
    /// - Throws: A changed migration (``StorageError/Code/migrationChanged``) or a schema behind
    ///   the binary (``StorageError/Code/schemaBehind``) at once: the role refuses to start rather
    ///   than retry what cannot succeed.
    private func retrying(_ name: String, _ step: () async throws -> Void) async throws -> Bool {
        var backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
        while true {
            do {
                try await step()
                return true
            } catch let error as StorageError where error.code == .migrationChanged || error.code == .schemaBehind {
                logger.critical("\(name) refused: \(error.message)")
                throw error
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return false }
                let delay = backoff.next()
                logger.warning("\(name) failed, retrying in \(delay): \(StorageError.summary(of: error))")
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// The schema's migrations and privileges, then the analysts' allow-list, calendar and
    /// business days: `switchboard migrate`, as the schema's owner.
    ///
    /// - Returns: The versions applied now (empty when the schema was current).
    @discardableResult
    public static func migrate(client: PostgresClient, analysts: AnalystSetup, logger: Logger) async throws -> [Int] {
        let applied = try await Migrator(client: client, logger: logger)
            .migrateSwitchboardSchema()
        try await analysts.apply(client: client, logger: logger)
        return applied
    }
}
