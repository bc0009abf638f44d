import Foundation
import Roles
import Testing

/// `SWITCHBOARD_SIMULATOR_START`: the smoke test and anyone who wants traffic at once pin the
/// simulated start; unset, the simulation starts at the wall clock.
@Suite struct SimulatorSettingsTests {
    let hook = URL(string: "http://127.0.0.1:8080/v1/hooks/main")!

    @Test("a start with an offset is the same instant in UTC")
    func startWithOffset() throws {
        let settings = try Settings(environment: ["SWITCHBOARD_SIMULATOR_START": "2026-11-20T11:30:00+09:00"])
        // 2026-11-20T02:30:00Z: 20,777 days after 1970-01-01 (2026-01-01 is day 20,454; + 323
        // days to November 20) × 86,400 s + 2.5 h.
        let expected = Date(timeIntervalSince1970: 20_777 * 86_400 + 9_000)
        #expect(settings.simulatorStart == expected)
        #expect(settings.simulatorOptions(hookURL: hook).start == expected)
    }

    @Test("unset, the simulation starts now")
    func startDefaultsToNow() throws {
        let before = Date()
        let options = try Settings(environment: [:]).simulatorOptions(hookURL: hook)
        #expect(options.start >= before.addingTimeInterval(-1))
        #expect(options.start <= Date().addingTimeInterval(1))
    }

    @Test(
        "a start that is not an ISO 8601 instant is refused, naming the variable",
        arguments: ["2026-11-20", "2026-11-20T11:30:00", "tomorrow", "2026-02-30T00:00:00Z"])
    func badStart(text: String) {
        #expect {
            try Settings(environment: ["SWITCHBOARD_SIMULATOR_START": text])
        } throws: { error in
            (error as? SettingsError)?.key == "SWITCHBOARD_SIMULATOR_START"
        }
    }
}
