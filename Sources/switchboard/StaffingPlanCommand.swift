import ArgumentParser
import ContactCenter
import Foundation
import Primitives
import Roles
import Services

/// `switchboard staffing plan`: the forecast per queue and 15 minutes, staffed, printed and stored.
struct StaffingPlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Forecast each queue per 15 minutes from same-day-type history and staff it; store the plan.",
        discussion: """
            The forecast of a date uses each store's own day type (weekday, weekend, holiday, pre-holiday)
            and that store's recent days of the same type (docs/staffing.md). The plan is stored in
            staffing_plan and staffing_plan_interval, readable by the analyst role.

            --from and --to also take `today` and `tomorrow`, in SWITCHBOARD_FLOOR_TIME_ZONE (the
            console's today), for a scheduled run such as the staffing-plan CronJob.

            Examples:
              switchboard staffing plan --from 2026-12-28 --to 2027-01-04 --service-level 80/20
              switchboard staffing plan --from today --to tomorrow --service-level 80/20
              switchboard staffing plan --from 2026-12-28 --to 2026-12-31 --queue sushi --model erlang-c \\
                --max-occupancy 0.85 --shrinkage 0.3 --format csv
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv
    }

    @Option(help: "The first business date, YYYY-MM-DD, or today or tomorrow.")
    var from: String

    @Option(help: "The last business date (inclusive), at most 400 days after --from; or today or tomorrow.")
    var to: String

    @Option(help: "One queue (its ARN or name); default: every queue with recent history.")
    var queue: String?

    @Option(help: "The target: P/X, P % answered within X seconds, e.g. 80/20.")
    var serviceLevel: String

    @Option(help: "erlang-a (callers hang up, patience from the history) or erlang-c.")
    var model: String = StaffingPlan.ModelChoice.erlangA.rawValue

    @Option(help: "The highest occupancy allowed, [0.5, 1].")
    var maxOccupancy: String?

    @Option(help: "Share of paid time off the queue, [0, 0.9]: scheduled = N / (1 - shrinkage).")
    var shrinkage: String = "0"

    @Option(help: "table (readable) or csv.")
    var format: Format = .table

    /// A request field as the command line names it.
    static func option(_ field: StaffingRequestError.Field) -> String {
        switch field {
        case .from: "--from"
        case .to: "--to"
        case .queue: "--queue"
        case .model: "--model"
        case .serviceLevel: "--service-level"
        case .maximumOccupancy: "--max-occupancy"
        case .shrinkage: "--shrinkage"
        case .weeks: "--weeks"
        }
    }

    /// `today` and `tomorrow` as the dates they are at `now` in `timeZone`; any other text as it is.
    static func date(_ text: String, in timeZone: TimeZone, now: Date = Date()) -> String {
        let days: Int
        switch text {
        case "today": days = 0
        case "tomorrow": days = 1
        default: return text
        }
        return CivilDate.of(now, in: timeZone).adding(days: days).description
    }

    func run() async throws {
        let settings = try Settings()
        let request: StaffingPlanRequest
        do {
            request = try StaffingPlanRequest(
                from: Self.date(from, in: settings.floorTimeZone), to: Self.date(to, in: settings.floorTimeZone),
                queue: queue, model: model, serviceLevel: serviceLevel, maximumOccupancy: maxOccupancy,
                shrinkage: shrinkage)
        } catch {
            throw ValidationError(error.message(naming: Self.option))
        }
        LoggingSetup.bootstrap(settings)
        let format = self.format
        do {
            // The plan reads while the analysts' setup checks the stores' business days against
            // flows/, and reads again in the rare case that it rewrote them.
            try await OneShotDatabase.run(
                settings,
                besideAnalysts: { client, logger, setup in
                    let planner = StaffingPlanner(client: client, logger: logger)
                    let (result, id) = try await planner.planAndSave(request, rereadIf: { try await setup.value })
                    let text: String
                    switch format {
                    case .csv:
                        // Notes on standard error: the CSV stays a table.
                        for note in result.plan.notes {
                            FileHandle.standardError.write(Data("note: \(note)\n".utf8))
                        }
                        text = result.plan.csv
                    case .table:
                        text =
                            result.plan.notes.map { "note: \($0)\n" }.joined()
                            + result.plan.table(queueNames: result.queueNames)
                    }
                    print(text, terminator: "")
                    if format == .table { print("\nplan \(id) stored in staffing_plan") }
                })
        } catch let error as StaffingRequestError {
            throw ValidationError(error.message(naming: Self.option))
        }
    }
}
