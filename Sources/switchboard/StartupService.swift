import Logging
import ServiceLifecycle

/// Runs a start-up task once (migrations, the banner), retrying it with bounded backoff while it
/// fails, then stays until graceful shutdown so the `ServiceGroup` keeps running.
struct StartupService: Service {
    let name: String
    let logger: Logger
    let task: @Sendable () async throws -> Void

    func run() async throws {
        var delay = Duration.milliseconds(200)
        while true {
            do {
                try await task()
                break
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                logger.warning("\(name) failed, retrying in \(delay): \(error)")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
        try? await gracefulShutdown()
    }
}
