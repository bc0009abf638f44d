import ArgumentParser
import ContactCenter
import Foundation
import Primitives
import Roles
import Services
import Storage

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

    @Option(help: "A simulator's expected offered contacts (CSV of switchboard staffing oracle).")
    var oracle: String?

    @Option(help: "text (a table and its notes) or csv (one line per day type, WAPEs as fractions).")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument {
        case text, csv
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = settings.floorTimeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        let request: StaffingBacktestRequest
        do {
            request = try StaffingBacktestRequest(
                weeks: weeks, before: CivilDate(year: parts.year!, month: parts.month!, day: parts.day!)!, queue: queue)
        } catch {
            throw ValidationError(error.message(naming: StaffingPlanCommand.option))
        }
        let expected: StaffingOracle?
        if let oracle {
            guard let text = try? String(contentsOfFile: oracle, encoding: .utf8) else {
                throw ValidationError("--oracle: cannot read \(oracle)")
            }
            do {
                expected = try StaffingOracle(csv: text)
            } catch {
                throw ValidationError("--oracle: \(error)")
            }
        } else {
            expected = nil
        }
        let backtest = try await OneShotDatabase.run(settings) { client, logger in
            try await StaffingBacktester(records: StaffingStore(client: client, logger: logger)).run(
                request, oracle: expected)
        }
        print(format == .csv ? backtest.csv : backtest.table, terminator: "")
    }
}
