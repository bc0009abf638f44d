import ContactCenter
import Logging
import PostgresNIO
import Server
import Services
import Storage

extension StaffingPlanner: StaffingSource {
    /// A planner over `client`; see ``StaffingPlanner/init(records:refreshEvery:upkeep:)``.
    public init(
        client: PostgresClient, logger: Logger, refreshEvery: Duration? = nil, upkeep: HistoryUpkeep = .refresh
    ) {
        self.init(
            records: StaffingStore(client: client, logger: logger), refreshEvery: refreshEvery, upkeep: upkeep)
    }

    /// The plan for `GET /v1/staffing`, not stored.
    public func staffing(_ request: StaffingPlanRequest) async throws -> (
        plan: StaffingPlan, queueNames: [String: String]
    ) {
        let result = try await plan(request)
        return (result.plan, result.queueNames)
    }

    /// The planner `GET /v1/staffing` and the MCP tools read over `client`: the history is
    /// brought up to date at most every 5 minutes (`dev`).
    public static func console(client: PostgresClient, logger: Logger) -> StaffingPlanner {
        StaffingPlanner(client: client, logger: logger, refreshEvery: .seconds(300))
    }

    /// The planner of `serve`, over `client` as a member of `switchboard_staffing_reader`: it
    /// never refreshes the history (the role may not write it), and reads it again at most every
    /// 5 minutes, so that it follows the refreshes of `staffing plan` (the writer's CronJob).
    public static func reader(client: PostgresClient, logger: Logger) -> StaffingPlanner {
        StaffingPlanner(client: client, logger: logger, refreshEvery: .seconds(300), upkeep: .readOnly)
    }

    /// `GET /v1/staffing` from this planner, with the console's tokens, and the agents staffed
    /// now on `floor`.
    public func routes(
        settings: Settings, floor: FloorWiring?, intraday: IntradayWiring? = nil
    ) -> StaffingRoutes {
        let timeZone = settings.floorTimeZone
        return StaffingRoutes(
            source: self, tokens: AccessTokens(settings.consoleTokens), timeZone: timeZone,
            floor: floor.map {
                FloorStaffing(floor: SwitchboardTools.floorView($0.publisher), source: self, timeZone: timeZone)
            },
            intraday: intraday?.source, budget: intraday?.budget ?? CallerBudget())
    }
}

extension IntradayPlanner: IntradaySource {}

extension IntradayPlanner {
    /// The reforecast over `client`, reading plans and history through `planner`.
    public init(client: PostgresClient, logger: Logger, planner: StaffingPlanner) {
        self.init(planner: planner, records: StaffingStore(client: client, logger: logger))
    }
}
