import ArgumentParser
import ContactCenter
import Foundation
import Primitives
import Roles
import Services
import Storage

/// `switchboard staffing intraday`: today against its plan, the rest of the day reforecast, and
/// what-if changes of the agents.
struct StaffingIntradayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intraday",
        abstract: "Reforecast the rest of a business day from the day so far; agents needed, what-if.",
        discussion: """
            Per queue and 15 minutes: the plan's forecast (the latest stored plan of the date, else one made from
            the history before it), the contacts offered so far, the rest of the day reforecast from how the day
            departs from the plan (docs/staffing.md, "Intraday"), the agents it needs and the service level, ASA
            and abandonment predicted with the agents the plan staffed. --at replays a past day as it stood at an
            instant, from the contacts' timestamps. What-if changes are scored beside.

            Examples:
              switchboard staffing intraday
              switchboard staffing intraday --date 2026-07-19 --at 18:00 --queue izakaya --format csv
              switchboard staffing intraday --queue izakaya --add-agents 2@18:00-21:00
              switchboard staffing intraday --move-agents 1:ramen->izakaya@18:00-20:00
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv, json
    }

    @Option(help: "The business date, YYYY-MM-DD; default: the one in progress.")
    var date: String?

    @Option(
        help:
            "Stand at this instant: HH:MM of the business date's clock (24:00-29:59 the night after) or an ISO 8601 instant; default now."
    )
    var at: String?

    @Option(help: "One queue (its ARN or name); default: every queue.")
    var queue: String?

    @Option(help: "The target: P/X, P % answered within X seconds.")
    var serviceLevel: String = "80/20"

    @Option(help: "erlang-a (callers hang up, patience from the history) or erlang-c.")
    var model: String = StaffingPlan.ModelChoice.erlangA.rawValue

    @Option(
        name: .customLong("add-agents"), parsing: .singleValue,
        help: "N@HH:MM-HH:MM: N more agents on --queue for the window (repeatable).")
    var addAgents: [String] = []

    @Option(
        name: .customLong("move-agents"), parsing: .singleValue,
        help: "N:FROM->TO@HH:MM-HH:MM: N agents serve queue TO instead of FROM for the window (repeatable).")
    var moveAgents: [String] = []

    @Option(help: "table, csv or json (the endpoint's).")
    var format: Format = .table

    func run() async throws {
        let request: IntradayRequest
        do {
            request = try IntradayRequest(
                date: date, at: at, queue: queue, serviceLevel: serviceLevel, model: model, add: addAgents,
                move: moveAgents)
        } catch {
            throw ValidationError(error.message(naming: Self.option))
        }
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        let outlook: IntradayOutlook
        do {
            outlook = try await OneShotDatabase.verified(settings) { client, logger in
                let store = StaffingStore(client: client, logger: logger)
                return try await IntradayPlanner(
                    planner: StaffingPlanner(client: client, logger: logger), records: store
                )
                .outlook(request, now: Date().timeIntervalSince1970)
            }
        } catch let error as StaffingRequestError {
            throw ValidationError(error.message(naming: StaffingPlanCommand.option))
        } catch let error as IntradayChangeError {
            throw ValidationError(error.description)
        }
        switch format {
        case .table: print(outlook.table, terminator: "")
        case .csv:
            for note in outlook.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
            print(outlook.csv, terminator: "")
        case .json: print(outlook.json())
        }
    }

    /// An intraday field as the command line names it.
    static func option(_ field: IntradayRequestError.Field) -> String {
        switch field {
        case .date: "--date"
        case .at: "--at"
        case .serviceLevel: "--service-level"
        case .model: "--model"
        case .addAgents: "--add-agents"
        case .moveAgents: "--move-agents"
        }
    }
}
