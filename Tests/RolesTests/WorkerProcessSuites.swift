import SwitchboardTesting
import Testing

/// The suites that start `switchboard ingest` worker processes, run one at a time: each of them
/// alone keeps both cores of a small CI machine busy, and side by side their timing-bound
/// checks (readiness within seconds, catching up within a minute) turned flaky.
@Suite("Worker processes", .serialized, .enabled(if: TestDatabase.enabled), .watched)
enum WorkerProcessSuites {}
