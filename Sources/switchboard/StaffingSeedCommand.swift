import ArgumentParser
import Foundation
import Roles
import Services

/// `switchboard staffing seed`: simulated history in an empty database, for trying the plan, the
/// console's staffing panel and the backtest before real history has accumulated.
struct StaffingSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Write simulated contact records ending now into an empty database (what `switchboard dev` seeds).",
        discussion: """
            The traffic simulation over the stores of flows/ (holidays, pre-holidays and weekends busier, closed
            hours quiet), written by the ingest writer. Without --days: the last 8 weeks and last year's holidays
            and pre-holidays. Refused when contact_record has a row.

            Example:
              switchboard staffing seed --days 365 && switchboard staffing backtest --weeks 8
            """
    )

    @Option(help: "Seed every day of the last N days (1...800).")
    var days: Int?

    @Option(
        help: """
            Share of store-days (0...1) whose rate a shock scales to the end of the business day: x1.6 from 11:00 \
            or x0.5 from 17:00, decided by the seed (overrides SWITCHBOARD_SIMULATOR_SHOCKS).
            """)
    var shocks: Double?

    func validate() throws {
        if let days, !(1...800).contains(days) { throw ValidationError("--days must be within 1...800 (got \(days))") }
        if let shocks, !(0...1).contains(shocks) { throw ValidationError("--shocks must be within 0...1") }
    }

    func run() async throws {
        var overridden = try Settings()
        if let shocks { overridden.simulatorShocks = shocks }
        let settings = overridden
        LoggingSetup.bootstrap(settings)
        let days = self.days
        let written = try await OneShotDatabase.run(settings) { client, logger in
            try await StaffingHistorySeeder(settings: settings, client: client, logger: logger)
                .seed(now: Date(), days: days)
        }
        guard let written else {
            throw ValidationError(
                "contact_record is not empty: simulated history is written only into an empty database")
        }
        print("seeded \(written) simulated contact records")
    }
}
