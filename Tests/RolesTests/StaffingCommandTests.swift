import Foundation
import Roles
import SwitchboardTesting
import Testing

/// `switchboard staffing` as an operator runs it: the built binary, its output and exit status;
/// and the plan's request checks, which need no database.
@Suite("switchboard staffing: the binary and the plan's request checks")
struct StaffingCommandTests {
    /// Runs the binary with `arguments` (separated by spaces); its exit status and what it printed
    /// (both streams).
    static func run(_ arguments: String) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run([SwitchboardProcess.binary] + arguments.split(separator: " ").map(String.init))
    }

    @Test("staffing erlang --json prints one object with the documented names (pyworkforce's vector: 14, 20 scheduled)")
    func erlangJSON() async throws {
        let (status, output) = try await Self.run(
            "staffing erlang --volume 100 --interval-minutes 30 --aht 180 --service-level 80/20 --shrinkage 0.3 --json")
        #expect(status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["agents"] as? Int == 14)
        #expect(json["scheduled_agents"] as? Int == 20)
        #expect(json.count == 8)
    }

    @Test("bad input exits non-zero with a message that says what is wrong")
    func badInput() async throws {
        let (status, output) = try await Self.run(
            "staffing erlang --volume 100 --interval-minutes 30 --aht 180 --service-level 100/20")
        #expect(status != 0)
        #expect(output.contains("outside (0 %, 100 %)"))
    }

    @Test("a plan's range is dates in order and at most 400 days")
    func ranges() throws {
        #expect(
            try StaffingPlanner.validatedRange(from: "2026-12-28", to: "2027-01-04") == ("2026-12-28", "2027-01-04"))
        #expect(throws: StaffingPlanner.RequestError.self) {
            try StaffingPlanner.validatedRange(from: "2026-01-01", to: "2027-03-01")
        }
        #expect(throws: StaffingPlanner.RequestError.self) {
            try StaffingPlanner.validatedRange(from: "2027-01-04", to: "2026-12-28")
        }
        #expect(throws: StaffingPlanner.RequestError.self) {
            try StaffingPlanner.validatedRange(from: "2026-02-30", to: "2026-03-01")
        }
    }
}
