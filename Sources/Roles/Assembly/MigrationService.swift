import Logging
import PostgresNIO
import Primitives
import ServiceLifecycle
import Storage

/// Applies the schema's migrations and the analysts' data (``AnalystSetup``) once at start, retrying with bounded
/// backoff while the database is unreachable, then opens ``gate`` and stays until shutdown.
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
        var backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
        while true {
            do {
                try await Self.migrate(client: client, analysts: analysts, logger: logger)
                break
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                let delay = backoff.next()
                logger.warning("migrations failed, retrying in \(delay): \(error)")
                try? await Task.sleep(for: delay)
            }
        }
        gate.open()
        afterwards()
        try? await gracefulShutdown()
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
