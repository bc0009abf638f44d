import ContactCenter
import Logging
import PostgresNIO
import Server
import Services
import Storage

extension StaffingPlanner: StaffingSource {
    /// A planner over `client`; see ``StaffingPlanner/init(records:refreshEvery:)``.
    public init(client: PostgresClient, logger: Logger, refreshEvery: Duration? = nil) {
        self.init(records: StaffingStore(client: client, logger: logger), refreshEvery: refreshEvery)
    }

    /// The plan for `GET /v1/staffing`, not stored.
    public func staffing(_ request: StaffingPlanRequest) async throws -> (
        plan: StaffingPlan, queueNames: [String: String]
    ) {
        let result = try await plan(request)
        return (result.plan, result.queueNames)
    }

    /// The planner `GET /v1/staffing` and the MCP tools read over `client`: the history is
    /// brought up to date at most every 5 minutes.
    public static func console(client: PostgresClient, logger: Logger) -> StaffingPlanner {
        StaffingPlanner(client: client, logger: logger, refreshEvery: .seconds(300))
    }

    /// `GET /v1/staffing` from this planner, with the console's tokens, and the agents staffed
    /// now on `floor`.
    public func routes(
        settings: Settings, floor: FloorWiring?, intraday: (any IntradaySource)? = nil
    ) -> StaffingRoutes {
        let timeZone = settings.floorTimeZone
        return StaffingRoutes(
            source: self, tokens: AccessTokens(settings.consoleTokens), timeZone: timeZone,
            floor: floor.map {
                FloorStaffing(floor: SwitchboardTools.floorView($0.publisher), source: self, timeZone: timeZone)
            },
            intraday: intraday)
    }
}

extension IntradayPlanner: IntradaySource {}

extension IntradayPlanner {
    /// The reforecast over `client`, reading plans and history through `planner`.
    public init(client: PostgresClient, logger: Logger, planner: StaffingPlanner) {
        self.init(planner: planner, records: StaffingStore(client: client, logger: logger))
    }
}
