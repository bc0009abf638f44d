import ArgumentParser
import Foundation
import Roles

/// `switchboard staffing backtest`: the forecast's accuracy per day type against two naive baselines.
struct StaffingBacktestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backtest",
        abstract: "Forecast each past day from the history before it; WAPE per day type against naive baselines.",
        discussion: """
            WAPE = sum |forecast - actual| / sum actual of offered contacts per queue and 15 minutes, beside the
            same weekday last week and the same weekday's mean over 8 weeks (which ignores day types).

            Example:
              switchboard staffing backtest --weeks 8
            """
    )

    @Option(help: "How many weeks before today to forecast, day by day.")
    var weeks: Int = 8

    @Option(help: "One queue (its ARN); default every queue.")
    var queue: String?

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = settings.floorTimeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        let today = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        let (weeks, queue) = (self.weeks, self.queue)
        do {
            let backtest = try await OneShotDatabase.run(settings) { client, logger in
                try await StaffingBacktester(client: client, logger: logger).run(
                    weeks: weeks, today: today, queue: queue)
            }
            print(backtest.table, terminator: "")
        } catch let error as StaffingPlanner.RequestError {
            throw ValidationError(error.description)
        }
    }
}
