import Logging
import Server
import ServiceLifecycle

/// The last service of an HTTP role's group, so graceful shutdown reaches it first: it begins
/// draining (`/ready` answers 503), waits `period` while the server keeps answering, and returns;
/// the group then stops the HTTP server, which finishes the requests in flight.
///
/// With a Kubernetes `preStop` sleep in front of it, no hook call is refused during a rollout:
/// the endpoint is removed while the pod still serves, and what is in flight completes.
struct DrainService: Service {
    let drain: ShutdownDrain
    let period: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        drain.begin()
        logger.info("draining: /ready answers 503; closing in \(period)")
        // Not cancellable by design of the drain; a second signal cancels the group and ends it.
        try? await Task.sleep(for: period)
    }
}
