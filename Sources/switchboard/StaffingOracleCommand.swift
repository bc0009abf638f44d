import ArgumentParser
import ContactCenter
import Foundation
import Primitives
import Roles
import Services

/// `switchboard staffing oracle`: the simulator's expected offered contacts for a backtest's days,
/// as CSV for `staffing backtest --oracle`.
struct StaffingOracleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oracle",
        abstract: "Print what the simulator expects per queue and 15 minutes over a backtest's days (CSV).",
        discussion: """
            For history written by `switchboard staffing seed` (the same flows/ and SWITCHBOARD_SIMULATOR_* settings):
            the seeding's simulation runs again over the last --weeks weeks with other traffic seeds, and the mean
            of the replicas' offered contacts per queue, business date and slot is lambda. Shocked queue-days are
            marked. No database. `staffing backtest --oracle FILE` scores it as the Poisson floor.

            Example:
              switchboard staffing oracle --weeks 8 --replicas 20 > oracle.csv
              switchboard staffing backtest --weeks 8 --oracle oracle.csv
            """
    )

    @Option(help: "How many weeks before today (as staffing backtest --weeks).")
    var weeks: Int = 8

    @Option(help: "Replicas whose mean is lambda (1...1000).")
    var replicas: Int = 20

    @Option(
        help: "The share of shocked store-days the history was seeded with (overrides SWITCHBOARD_SIMULATOR_SHOCKS).")
    var shocks: Double?

    func validate() throws {
        if !(1...1_000).contains(replicas) { throw ValidationError("--replicas must be within 1...1000") }
        if let shocks, !(0...1).contains(shocks) { throw ValidationError("--shocks must be within 0...1") }
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        let request: StaffingBacktestRequest
        do {
            request = try StaffingBacktestRequest(
                weeks: weeks, before: CivilDate.of(in: settings.floorTimeZone), queue: nil)
        } catch {
            throw ValidationError(error.message(naming: StaffingPlanCommand.option))
        }
        guard let first = request.days.first, let last = request.days.last else { return }
        let oracle = try await StaffingOracleBuilder(
            flowsDirectory: settings.flowsDirectory, agents: settings.simulatorAgents, seed: settings.simulatorSeed,
            shocks: shocks ?? settings.simulatorShocks
        ).build(dates: first...last, replicas: replicas)
        print(oracle.csv, terminator: "")
    }
}
