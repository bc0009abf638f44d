import ContactCenter
import Foundation
import Hummingbird

/// `GET /v1/staffing?queue=&from=&to=&service_level=80/20&model=&max_occupancy=&shrinkage=`: the
/// forecast and the agents needed per queue and 15 minutes (docs/staffing.md), as the console's
/// staffing panel reads it, with `now_date` and `now_slot`. Same tokens as the console's streams. `from` and `to` default to
/// today in `timeZone`.
public struct StaffingRoutes: RouteProvider {
    let source: any StaffingSource
    let tokens: AccessTokens
    let timeZone: TimeZone

    /// Creates the routes.
    /// - Parameters:
    ///   - source: Where plans come from.
    ///   - tokens: The console's tokens; empty leaves it open (development only).
    ///   - timeZone: The business time zone, for "today".
    public init(source: any StaffingSource, tokens: AccessTokens, timeZone: TimeZone) {
        self.source = source
        self.tokens = tokens
        self.timeZone = timeZone
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        let group = router.group("/v1/staffing").add(middleware: FloorTokenMiddleware(tokens: tokens))
        group.get { [source, timeZone] request, _ -> Response in
            let now = Self.now(in: timeZone)
            let query = try Self.query(request.uri.queryParameters, today: now.date)
            let result: (plan: StaffingPlan, queueNames: [String: String])
            do {
                result = try await source.staffing(query)
            } catch let refusal as StaffingRefusal {
                throw APIError.badRequest(refusal.reason)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string: "{\"now_date\":\"\(now.date)\",\"now_slot\":\(now.slot),"
                            + result.plan.json(queueNames: result.queueNames).dropFirst())))
        }
    }

    /// Today's date `YYYY-MM-DD` and the 15-minute slot of now, in `timeZone` (the response's
    /// `now_date` and `now_slot`, so the console picks the slot of "needed now" by the server's clock).
    static func now(in timeZone: TimeZone, at instant: Date = Date()) -> (date: String, slot: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return ("\(parts.year!)-\(two(parts.month!))-\(two(parts.day!))", (parts.hour! * 60 + parts.minute!) / 15)
    }

    /// The query's parameters, validated.
    /// - Throws: `APIError.badRequest` naming the parameter.
    static func query(_ parameters: Parameters, today: String) throws -> StaffingQuery {
        func number(_ name: String) throws -> Double? {
            guard let text = parameters.get(name) else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw APIError.badRequest("\(name) must be a number (got \(text))")
            }
            return value
        }
        let modelName = parameters.get("model") ?? StaffingPlan.ModelChoice.erlangA.rawValue
        guard let model = StaffingPlan.ModelChoice(rawValue: modelName) else {
            throw APIError.badRequest("model must be erlang-a or erlang-c (got \(modelName))")
        }
        do {
            let target = try ServiceTarget(
                parsing: parameters.get("service_level") ?? "80/20", maximumOccupancy: try number("max_occupancy"))
            let shrinkage = try number("shrinkage") ?? 0
            _ = try Shrinkage.scheduled(productive: 0, shrinkage: shrinkage)
            return StaffingQuery(
                queue: parameters.get("queue"), from: parameters.get("from") ?? today,
                to: parameters.get("to") ?? parameters.get("from") ?? today, model: model, target: target,
                shrinkage: shrinkage)
        } catch let error as StaffingError {
            throw APIError.badRequest(error.description)
        }
    }
}
