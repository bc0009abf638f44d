import ContactCenter
import Logging
import Testing

@testable import SwitchboardTesting

/// The test helpers' own safeguards: a step that waits too long is reported, and two tests never
/// share a database.
@Suite("Test harness: the step watchdog and fresh databases", .enabled(if: TestDatabase.enabled))
struct TestHarnessTests {
    @Test("a step waiting past the watchdog's patience is reported once, with its client's last events")
    func lateStepReported() async throws {
        let recent = LogRing(capacity: 2)
        let logger = recent.logger(label: "probe")
        logger.debug("first")
        logger.debug("connection closed", metadata: ["id": "7"])
        logger.debug("lease queued")
        let name = "probe step \(UInt64.random(in: 0 ... .max))"
        // Only this step is looked at: marking other tests' steps reported would silence them.
        let probe = { (step: String) in step == name }
        try await StepWatchdog.step(name, recent: recent) {
            let early = StepWatchdog.late(at: .now + StepWatchdog.patience - .seconds(1), named: probe)
            #expect(!early.contains { $0.hasPrefix(name) })
            let late = StepWatchdog.late(at: .now + StepWatchdog.patience + .seconds(1), named: probe)
            let report = try #require(late.first { $0.hasPrefix(name) })
            #expect(report.contains("probe: connection closed id=7"))
            #expect(report.contains("probe: lease queued"))
            #expect(!report.contains("first"), "the ring keeps its last 2 lines")
            let again = StepWatchdog.late(at: .now + StepWatchdog.patience + .seconds(2), named: probe)
            #expect(!again.contains { $0.hasPrefix(name) }, "reported once")
        }
        let after = StepWatchdog.late(at: .now + StepWatchdog.patience * 2, named: probe)
        #expect(!after.contains { $0.hasPrefix(name) }, "a finished step is forgotten")
    }

    @Test("a database name in use by another test is refused, not dropped under it")
    func databaseInUseRefused() async throws {
        try await TestDatabase.withFreshDatabase("harness_in_use") { client, _ in
            await #expect(throws: TestDatabaseSetupFailed.self) {
                try await TestDatabase.withFreshDatabase("harness_in_use") { _, _ in }
            }
            // The first test's database was not dropped: its client still works.
            let rows = try await client.query("SELECT 1", logger: TestDatabase.logger)
            var count = 0
            for try await _ in rows { count += 1 }
            #expect(count == 1)
        }
    }
}

@Suite("Traffic fixtures: the benchmark's recent base")
struct TrafficFixturesBaseTests {
    @Test("the recent base is the fixtures' weekday and time, the latest at least eight days before now")
    func recentBase() {
        let base = TrafficFixtures.base.millisecondsSince1970
        let day: Int64 = 86_400_000
        func recent(_ offset: Int64) -> Int64 {
            TrafficFixtures.recentBase(now: .init(millisecondsSince1970: base + offset)).millisecondsSince1970
        }
        #expect(recent(8 * day) == base)
        #expect(recent(15 * day - 1) == base)
        #expect(recent(15 * day) == base + 7 * day)
        #expect(recent(3 * day) == base - 7 * day)
        #expect(recent(8 * day - 1) == base - 7 * day)
        #expect(recent(400 * day) == base + 392 * day)
    }
}
