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

    @Flag(
        help:
            "Score the intraday reforecast instead: shocked queue-days 1 h and 3 h after the shock began, others at 12:00, 15:00, 18:00."
    )
    var intraday = false

    @Flag(help: "With --intraday: score a grid of the reforecast's parameters (how the defaults were chosen).")
    var tune = false

    @Option(
        help:
            "With --intraday: the share of shocked store-days the history was seeded with (default SWITCHBOARD_SIMULATOR_SHOCKS)."
    )
    var shocks: Double?

    /// The parameters `--tune` scores.
    static let grid: [IntradayParameters] = {
        var grid: [IntradayParameters] = []
        for k in [2.0, 8, 32] {
            for store in [1.0, 4, 16, nil] {
                for halfLife in [60.0, 120, nil] {
                    grid.append(
                        IntradayParameters(
                            volumePriorContacts: k, storePriorContacts: store, halfLifeMinutes: halfLife,
                            handleTimePriorContacts: 30))
                }
            }
        }
        return grid
    }()

    enum OutputFormat: String, ExpressibleByArgument {
        case text, csv
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        let request: StaffingBacktestRequest
        do {
            request = try StaffingBacktestRequest(
                weeks: weeks, before: CivilDate.of(in: settings.floorTimeZone), queue: queue)
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
        if intraday {
            let share = shocks ?? settings.simulatorShocks
            let schedule = share > 0 ? TrafficShocks(share: share, seed: settings.simulatorSeed) : nil
            let grid = tune ? Self.grid : [IntradayParameters.standard]
            let results = try await OneShotDatabase.run(settings) { client, logger in
                let store = StaffingStore(client: client, logger: logger)
                return try await IntradayBacktester(records: store, intraday: store).run(
                    request, oracle: expected, shocks: schedule, parameters: grid)
            }
            for result in results {
                print(format == .csv ? result.csv : result.table, terminator: format == .csv ? "" : "\n")
                if tune {
                    let normal = result.total("normal")
                    let line = [1, 3].map { "recovery_\($0)h=\(result.total("shock+\($0)h").recovery ?? .nan)" }
                    let p = result.parameters
                    print(
                        "TUNE k=\(p.volumePriorContacts) store_k=\(p.storePriorContacts ?? -1) "
                            + "half_life=\(p.halfLifeMinutes ?? -1) \(line.joined(separator: " ")) "
                            + "normal_change=\(normal.change ?? .nan)")
                }
            }
            return
        }
        let backtest = try await OneShotDatabase.run(settings) { client, logger in
            try await StaffingBacktester(records: StaffingStore(client: client, logger: logger)).run(
                request, oracle: expected)
        }
        print(format == .csv ? backtest.csv : backtest.table, terminator: "")
    }
}
