import Foundation
import Primitives

/// The instant a test that means "now" stands at: the date it seeds history up to, plans and
/// replays. Never the wall clock, so a test's expectations do not move with the day or hour it
/// runs.
///
/// `SWITCHBOARD_TEST_NOW` (an ISO 8601 instant) sets it: the clock sweep (`scripts/clock-sweep.sh`)
/// runs the date-dependent suites at adversarial instants, such as a Wednesday, New Year's Eve at
/// 23:50 JST or 03:55 JST while a bar's business day is still yesterday's. Without it, tests stand
/// at ``pinned``.
public enum TestClock {
    /// The instant of an ordinary run: a Wednesday afternoon in Tokyo (2026-12-02 13:11 JST), the
    /// day `staffing intraday`'s replay once lost the queue of a store closed the day before.
    public static let pinned = "2026-12-02T13:11:00+09:00"

    /// The variable the clock sweep sets.
    public static let variable = "SWITCHBOARD_TEST_NOW"

    /// The text of the instant: `SWITCHBOARD_TEST_NOW`, else ``pinned``.
    public static let text: String = {
        let asked = ProcessInfo.processInfo.environment[variable] ?? ""
        return asked.isEmpty ? pinned : asked
    }()

    /// The instant tests stand at. A `SWITCHBOARD_TEST_NOW` that does not parse stops the run: a
    /// sweep that silently ran at the pinned instant would prove nothing.
    public static let now: Date = {
        guard let date = ISO8601DateFormatter().date(from: text) else {
            fatalError("\(variable) must be an ISO 8601 instant such as \(pinned) (got \(text))")
        }
        return date
    }()

    /// Japan's time zone, where the shipped stores and the analytics day are.
    public static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// The calendar date at ``now`` in `timeZone`.
    public static func date(in timeZone: TimeZone = tokyo) -> CivilDate {
        CivilDate.of(now, in: timeZone)
    }

    /// ``now`` as an ISO 8601 instant in UTC (what `--at` and `--until` take).
    public static var iso8601: String { ISO8601DateFormatter().string(from: now) }

    /// Names the instant in a failure message, so a sweep's failure says which instant broke.
    public static var label: String { "at \(text)" }
}
