import ContactCenter
import Logging
import PostgresNIO
import Server

extension StaffingPlanner: StaffingSource {
    /// The plan for `GET /v1/staffing`, not stored.
    public func staffing(_ query: StaffingQuery) async throws -> (plan: StaffingPlan, queueNames: [String: String]) {
        do {
            let result = try await plan(
                Request(
                    from: query.from, to: query.to, queue: query.queue, model: query.model, target: query.target,
                    shrinkage: query.shrinkage))
            return (result.plan, result.queueNames)
        } catch let error as RequestError {
            throw StaffingRefusal(reason: error.description)
        }
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
