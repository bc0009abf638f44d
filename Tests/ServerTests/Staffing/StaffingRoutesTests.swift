import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Primitives
import Server
import Testing

/// `GET /v1/staffing`: the console's tokens, parameters validated into clear 400s, the source's
/// refusals as 400s, and the plan's JSON with the server's "now".
@Suite("Staffing routes")
struct StaffingRoutesTests {
    /// One queue, one store on a holiday, 10 contacts in slot 40 with AHT 180 s.
    struct FixedSource: StaffingSource {
        func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String])
        {
            if request.queue == "nope" { throw StaffingRequestError(.queue, .unknownQueue("nope", known: ["Q"])) }
            let queues = [
                "q": StaffingQueueHistory(
                    name: "Q", stores: ["s"], averageHandleTimeSeconds: 180, abandoned: 0, queueSeconds: 0)
            ]
            var calendar = StaffingCalendar(request.dates)
            calendar.set(.holiday, store: "s", on: request.dates.lowerBound)
            let forecast = StaffingForecast(
                queues: queues,
                baselines: [
                    StaffingBaselineKey(queue: "q", store: "s", dayType: .holiday): StaffingBaseline(
                        weight: 1, days: 1, offered: [DaySlot(40): 10], handleSeconds: [DaySlot(40): 1800],
                        handled: [DaySlot(40): 10])
                ],
                calendar: calendar)
            let plan = try StaffingPlan(
                forecast: forecast, queues: queues, model: request.model, target: request.target,
                shrinkage: request.shrinkage)
            return (plan, ["q": "Q"])
        }
    }

    func withApp(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(
            router: buildRouter(
                dependencies: ServerDependencies(routeProviders: [
                    StaffingRoutes(
                        source: FixedSource(), tokens: AccessTokens(["s3cret"]),
                        timeZone: TimeZone(identifier: "Asia/Tokyo")!)
                ])))
        try await app.test(.router) { client in try await body(client) }
    }

    @Test("the plan as JSON: now, notes, per queue and date the slots with agents and both service levels")
    func plan() async throws {
        try await withApp { client in
            try await client.execute(
                uri: "/v1/staffing?from=2026-12-30&service_level=80/20&shrinkage=0.3&token=s3cret", method: .get
            ) { response in
                #expect(response.status == .ok)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any])
                #expect(json["now_slot"] is Int)
                #expect((json["now_date"] as? String)?.count == 10)
                let queue = try #require((json["queues"] as? [[String: Any]])?.first)
                #expect(queue["queue_name"] as? String == "Q")
                let day = try #require((queue["days"] as? [[String: Any]])?.first)
                #expect(day["date"] as? String == "2026-12-30")
                #expect(day["day_types"] as? String == "holiday")
                let slot = try #require((day["slots"] as? [[String: Any]])?.first)
                #expect(slot["start"] as? String == "10:00")
                #expect(slot["agents"] as? Int == 4)  // A = 2 Erlangs, 80/20
                #expect(slot["scheduled_agents"] as? Int == 6)  // ⌈4 / 0.7⌉
                #expect(slot["connect_service_level"] is Double)
            }
        }
    }

    @Test("401 without the console's token; 400 for a bad target, model, number or a refused queue")
    func refusals() async throws {
        try await withApp { client in
            try await client.execute(uri: "/v1/staffing", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            for (query, reason) in [
                ("service_level=100/20", "outside (0 %, 100 %)"), ("model=erlang-x", "erlang-a or erlang-c"),
                ("shrinkage=1", "shrinkage"), ("max_occupancy=abc", "max_occupancy must be a number"),
                ("queue=nope", "unknown queue nope"), ("from=2026-12-30&to=2026-12-01", "from 2026-12-30 is after to"),
                ("from=2026-02-30", "from must be a date"),
                (
                    "from=2026-01-01&to=2026-02-01",
                    "the range 2026-01-01...2026-02-01 (from, to) covers 32 days: at most 31"
                ),
                ("max_occupancy=1.5", "maximum occupancy 1.5 is outside [0.5, 1]"), ("shrinkage=-0.1", "(shrinkage)"),
                // The bounds of a request's cost: a cap that multiplies the agents, a shrinkage
                // whose N / (1 − s) overflows an Int, a threshold past an hour.
                (
                    "max_occupancy=0.0001&shrinkage=0.9999999999999999",
                    "maximum occupancy 0.0001 is outside [0.5, 1]"
                ),
                ("max_occupancy=0.49", "(max_occupancy)"), ("max_occupancy=1e-9", "(max_occupancy)"),
                ("shrinkage=0.9999999999999999", "shrinkage 0.9999999999999999 is outside [0, 0.9]"),
                ("shrinkage=0.91", "(shrinkage)"), ("service_level=80/3601", "outside (0 s, 3,600 s]"),
            ] {
                try await client.execute(uri: "/v1/staffing?\(query)&token=s3cret", method: .get) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    let body = String(buffer: response.body)
                    #expect(body.contains(reason), "\(query): \(body)")
                    #expect(!body.contains("--"), "a command-line option in an HTTP answer: \(body)")
                }
            }
        }
    }
}
