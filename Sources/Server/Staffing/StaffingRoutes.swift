import ContactCenter
import Foundation
import Hummingbird
import Primitives

/// `GET /v1/staffing?queue=&from=&to=&service_level=80/20&model=&max_occupancy=&shrinkage=`: the
/// forecast and the agents needed per queue and 15 minutes (docs/staffing.md), as the console's
/// staffing panel reads it, with `now_date` and `now_slot`. Same tokens as the console's streams.
/// `from` and `to` default to today in `timeZone`. Where a floor runs, `staffed_now` gives the
/// agents staffed now: the whole pool at the top, and per queue by routing profile
/// (``StaffedNow``); `null` without a floor.
///
/// `GET /v1/staffing/intraday?queue=&date=&at=&service_level=&model=&add_agents=&move_agents=`:
/// the business day's reforecast (``IntradayOutlook/json()``); `add_agents` and `move_agents`
/// repeat.
///
/// Each token (each address, open) has one of these requests running at a time, and four more
/// waiting their turn; a sixth is refused `429` (``CallerBudget``), so one caller never holds the
/// staffing reader's connections.
public struct StaffingRoutes: RouteProvider {
    let source: any StaffingSource
    let tokens: AccessTokens
    let timeZone: TimeZone
    let floor: FloorStaffing?
    let intraday: (any IntradaySource)?
    /// The clock of "now": today, the slot of "needed now" and the intraday instant.
    let clock: @Sendable () -> Date
    /// Each token's share: one plan or reforecast at a time, four more waiting.
    let budget: CallerBudget

    /// Creates the routes.
    /// - Parameters:
    ///   - source: Where plans come from.
    ///   - tokens: The console's tokens; empty leaves it open (development only).
    ///   - timeZone: The business time zone, for "today".
    ///   - floor: The live floor's staffed figures; `nil` where no floor runs.
    ///   - intraday: The reforecast behind `GET /v1/staffing/intraday`; `nil`: not served.
    ///   - clock: Now (the wall clock; a demo or a test passes the instant it stands at).
    ///   - budget: What one caller may have running and waiting at once.
    public init(
        source: any StaffingSource, tokens: AccessTokens, timeZone: TimeZone, floor: FloorStaffing? = nil,
        intraday: (any IntradaySource)? = nil, clock: @escaping @Sendable () -> Date = { Date() },
        budget: CallerBudget = CallerBudget(concurrent: 1, waiting: 4)
    ) {
        self.clock = clock
        self.budget = budget
        self.source = source
        self.tokens = tokens
        self.timeZone = timeZone
        self.floor = floor
        self.intraday = intraday
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        let group = router.group("/v1/staffing").add(middleware: FloorTokenMiddleware(tokens: tokens))
            .add(middleware: CallerBudgetMiddleware(budget: budget))
        group.get { [source, timeZone, floor, clock] request, _ -> Response in
            let now = Self.now(in: timeZone, at: clock())
            let result: (plan: StaffingPlan, queueNames: [String: String])
            let planRequest: StaffingPlanRequest
            do {
                planRequest = try Self.request(request.uri.queryParameters, today: now.date)
                result = try await source.staffing(planRequest)
            } catch let refusal as StaffingRequestError {
                throw APIError.badRequest(refusal.message(naming: Self.parameter))
            } catch let refusal as StaffingError {
                throw APIError.badRequest("the plan asked for cannot be staffed: \(refusal)")
            }
            // A plan of today for every queue holds the loads already; otherwise they are read.
            let loads =
                planRequest.queue == nil && planRequest.dates.contains(now.date)
                ? result.plan.offeredLoad(on: now.date, slot: now.slot) : nil
            let staffed = await floor?.staffedNow(at: now, loads: loads)
            let pool = staffed.map { String($0.pool) } ?? "null"
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string: "{\"now_date\":\"\(now.date)\",\"now_slot\":\(now.slot.index),\"staffed_now\":\(pool),"
                            + result.plan.json(queueNames: result.queueNames, staffedNow: staffed).dropFirst())))
        }
        guard let intraday else { return }
        var live: (@Sendable ([String: Double]) async -> IntradayLive?)?
        if let floor {
            live = { @Sendable loads in await floor.live(loads: loads) }
        }
        group.get("intraday") { [live, clock] request, _ -> Response in
            let outlook: IntradayOutlook
            do {
                let asked = try Self.intradayRequest(request.uri.queryParameters)
                outlook = try await intraday.outlook(asked, now: clock().timeIntervalSince1970, live: live)
            } catch let refusal as IntradayRequestError {
                throw APIError.badRequest(refusal.message(naming: Self.intradayParameter))
            } catch let refusal as StaffingRequestError {
                throw APIError.badRequest(refusal.message(naming: Self.parameter))
            } catch let refusal as IntradayChangeError {
                throw APIError.badRequest(refusal.description)
            } catch let refusal as StaffingError {
                throw APIError.badRequest("the outlook asked for cannot be staffed: \(refusal)")
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: outlook.json())))
        }
    }

    /// `GET /v1/staffing/intraday`'s query as a request.
    /// - Throws: `IntradayRequestError` naming the parameter at fault.
    static func intradayRequest(_ parameters: Parameters) throws(IntradayRequestError) -> IntradayRequest {
        try IntradayRequest(
            date: parameters.get("date"), at: parameters.get("at"), queue: parameters.get("queue"),
            serviceLevel: parameters.get("service_level") ?? "80/20", model: parameters.get("model"),
            add: parameters.getAll("add_agents"), move: parameters.getAll("move_agents"))
    }

    /// An intraday field as the query string names it.
    static func intradayParameter(_ field: IntradayRequestError.Field) -> String {
        switch field {
        case .date: "date"
        case .at: "at"
        case .serviceLevel: "service_level"
        case .model: "model"
        case .addAgents: "add_agents"
        case .moveAgents: "move_agents"
        }
    }

    /// Today's date and the 15-minute slot of now, in `timeZone` (the response's `now_date` and
    /// `now_slot`, so the console picks the slot of "needed now" by the server's clock).
    static func now(in timeZone: TimeZone, at instant: Date) -> (date: CivilDate, slot: DaySlot) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return (
            CivilDate(year: parts.year!, month: parts.month!, day: parts.day!)!,
            DaySlot(minutesAfterMidnight: parts.hour! * 60 + parts.minute!)
        )
    }

    /// The query's parameters as a request; `from` and `to` default to `today`.
    /// - Throws: `StaffingRequestError` naming the parameter at fault.
    static func request(_ parameters: Parameters, today: CivilDate) throws(StaffingRequestError) -> StaffingPlanRequest
    {
        let from = parameters.get("from") ?? today.description
        return try StaffingPlanRequest(
            from: from, to: parameters.get("to") ?? from, queue: parameters.get("queue"),
            model: parameters.get("model"), serviceLevel: parameters.get("service_level") ?? "80/20",
            maximumOccupancy: parameters.get("max_occupancy"), shrinkage: parameters.get("shrinkage"),
            maximumDays: StaffingPlanRequest.maximumDaysPerHTTPRequest)
    }

    /// A request field as the query string names it.
    static func parameter(_ field: StaffingRequestError.Field) -> String {
        switch field {
        case .from: "from"
        case .to: "to"
        case .queue: "queue"
        case .model: "model"
        case .serviceLevel: "service_level"
        case .maximumOccupancy: "max_occupancy"
        case .shrinkage: "shrinkage"
        case .weeks: "weeks"
        }
    }
}
