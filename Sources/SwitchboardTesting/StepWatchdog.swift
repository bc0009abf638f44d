import Foundation
import Synchronization

/// Names the steps of the test helpers that wait on something outside the test (a database
/// client's start and shutdown, a child process) and reports on standard error any step that has
/// been waiting longer than ``patience``, with how long: a test run that stops making progress
/// says where, instead of only which tests started and never ended.
///
/// The reporter is a thread of its own, not a task: it must speak when every task is waiting.
public enum StepWatchdog {
    /// How long a step may wait before it is reported (once): twice the longest test.
    public static let patience: Duration = .seconds(300)

    private struct Step {
        var name: String
        var began: ContinuousClock.Instant
        /// What it is waiting on said last (a client's pool events).
        var recent: LogRing?
        var reported = false
    }

    private static let steps = Mutex<[UInt64: Step]>([:])
    private static let nextID = Atomic<UInt64>(0)
    private static let reporter: Void = {
        Thread.detachNewThread {
            while true {
                Thread.sleep(forTimeInterval: 15)
                report(now: .now)
            }
        }
    }()

    /// Runs `body` as the step `name`; a report of it includes what `recent` holds then.
    public static func step<T>(
        _ name: @autoclosure () -> String, recent: LogRing? = nil, _ body: () async throws -> T
    ) async rethrows -> T {
        _ = reporter
        let id = nextID.add(1, ordering: .relaxed).newValue
        steps.withLock { $0[id] = Step(name: name(), began: .now, recent: recent) }
        defer { steps.withLock { _ = $0.removeValue(forKey: id) } }
        return try await body()
    }

    private static func report(now: ContinuousClock.Instant) {
        let late = late(at: now)
        guard !late.isEmpty else { return }
        let waiting = steps.withLock { $0.count }
        let text =
            late.map { "step watchdog: still waiting: \($0)\n" }.joined()
            + "step watchdog: \(waiting) steps in progress\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The steps named as `include` says that wait longer than ``patience`` at `now` and were not
    /// reported before (each is reported once), described with what their client said last.
    static func late(at now: ContinuousClock.Instant, named include: (String) -> Bool = { _ in true }) -> [String] {
        steps.withLock { steps -> [String] in
            var late: [String] = []
            for (id, step) in steps.sorted(by: { $0.key < $1.key })
            where !step.reported && now - step.began > patience && include(step.name) {
                steps[id]?.reported = true
                var line = "\(step.name) (waiting \(now - step.began))"
                if let recent = step.recent?.text, !recent.isEmpty { line += "; its client's last events:\n\(recent)" }
                late.append(line)
            }
            return late
        }
    }
}
