import Synchronization

/// Whether the process is draining: shutting down, still serving, no longer advertising ready.
///
/// On SIGTERM a role first starts draining (every `/ready` endpoint answers 503 `draining`, so
/// load balancers and Kubernetes stop sending new calls), keeps answering for the drain period,
/// and only then closes its listener. `/health` (liveness) stays 200 throughout.
public final class ShutdownDrain: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    /// Whether draining has begun.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Begins draining (idempotent).
    public func begin() { draining.store(true, ordering: .releasing) }
}
