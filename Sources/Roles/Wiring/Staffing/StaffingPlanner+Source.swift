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

    /// `GET /v1/staffing` over `client`, with the console's tokens; the history is brought up to
    /// date at most every 5 minutes.
    public static func routes(settings: Settings, client: PostgresClient, logger: Logger) -> StaffingRoutes {
        StaffingRoutes(
            source: StaffingPlanner(client: client, logger: logger, refreshEvery: .seconds(300)),
            tokens: AccessTokens(settings.consoleTokens),
            timeZone: settings.floorTimeZone)
    }
}
