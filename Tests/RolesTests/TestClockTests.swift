import Foundation
import Primitives
import SwitchboardTesting
import Testing

/// The instant tests stand at is one instant: the Swift tests' and the scripts' (scripts/lib.sh,
/// which the browser test reads) agree, and the sweep's instants lie in the past.
@Suite("TestClock: one pinned instant for the Swift tests and the scripts")
struct TestClockTests {
    @Test("scripts/lib.sh's test_now defaults to TestClock.pinned, a Wednesday in Tokyo")
    func scriptsAgree() throws {
        let library = try String(
            contentsOf: Repository.root.appendingPathComponent("scripts/lib.sh"), encoding: .utf8)
        #expect(library.contains("${SWITCHBOARD_TEST_NOW:-\(TestClock.pinned)}"))
        let pinned = try #require(ISO8601DateFormatter().date(from: TestClock.pinned))
        #expect(CivilDate.of(pinned, in: TestClock.tokyo).weekday == .wednesday)
    }

    @Test("the clock sweep's instants parse and lie before the pinned instant's next day")
    func sweepInstants() throws {
        let sweep = try String(
            contentsOf: Repository.root.appendingPathComponent("scripts/clock-sweep.sh"), encoding: .utf8)
        let instants = sweep.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("20") && $0.count == 25 }
        #expect(instants.count >= 5, "\(instants)")
        let pinned = try #require(ISO8601DateFormatter().date(from: TestClock.pinned))
        for instant in instants {
            let date = try #require(ISO8601DateFormatter().date(from: instant), "\(instant)")
            #expect(date < pinned, "\(instant): a sweep instant lies in the past of every run")
        }
    }
}
