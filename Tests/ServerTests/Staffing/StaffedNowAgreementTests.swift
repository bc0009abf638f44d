import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Primitives
import Testing

@testable import Server

/// "Staffed now" per queue is one figure: `GET /v1/staffing` (what the console shows) and the MCP
/// `queue_status` tool report the same numbers for the same floor and forecast, and the route
/// reports the whole pool beside them.
@Suite("Staffed now: the staffing route and queue_status agree")
struct StaffedNowAgreementTests {
    /// Plans nothing; its forecast load now is 3 Erlangs on Reservations, 1 on Delivery, 0 on
    /// Overflow.
    struct Loads: StaffingSource {
        func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String])
        {
            (try StaffingPlan(model: .erlangC, target: try ServiceTarget(parsing: "80/20"), shrinkage: 0), [:])
        }

        func offeredLoad(on date: CivilDate, slot: DaySlot) async throws -> [String: Double] {
            ["arn:reservations": 3, "arn:delivery": 1, "arn:overflow": 0]
        }
    }

    static func agent(_ id: String, _ activity: AgentActivity, _ queues: [String]) -> AgentView {
        AgentView(
            id: id, name: id, username: nil, activity: activity, status: "Available", statusType: "ROUTABLE",
            statusSince: nil, routingProfile: nil, queues: queues, contacts: [])
    }

    static func queue(_ id: String, _ name: String) -> QueueView {
        QueueView(
            id: id, name: name, waiting: 0, oldestWaitSince: nil, offered: 0, answered: 0, abandoned: 0,
            answeredWithinThreshold: 0, serviceLevel: nil)
    }

    /// By hand: a (Reservations, Delivery) gives 3/4 and 1/4; b (Delivery, Overflow) gives
    /// Delivery 1 (Overflow is forecast 0); c (every queue) 3/4 and 1/4 and 0; d at lunch
    /// counts nowhere. Reservations 1.5, Delivery 1.5, Overflow 0; the pool is 3.
    static let view: FloorView = {
        let queues = [
            queue("arn:reservations", "Reservations"), queue("arn:delivery", "Delivery"),
            queue("arn:overflow", "Overflow"),
        ]
        let agents = [
            agent("a", .available, ["Reservations", "Delivery"]),
            agent("b", .onContact, ["Delivery", "Overflow"]),
            agent("c", .afterContactWork, ["Reservations", "Delivery", "Overflow"]),
            agent("d", .customStatus, ["Reservations"]),
        ]
        return FloorView(
            businessDay: nil, serviceLevelThresholdSeconds: 20, agents: agents, queues: queues,
            summary: FloorSummary(agents: agents, queues: queues))
    }()
    static let expected = ["arn:reservations": 1.5, "arn:delivery": 1.5, "arn:overflow": 0.0]

    @Test("the route's staffed_now and queue_status's agentsStaffed, per queue, and the pool")
    func agree() async throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let floor = FloorStaffing(floor: { Self.view }, source: Loads(), timeZone: tokyo)
        let staffed = try #require(await floor.staffedNow())
        #expect(staffed.pool == 3)
        for (id, value) in Self.expected { #expect(abs((staffed.queues[id] ?? .nan) - value) < 1e-12, "\(id)") }

        let server = SwitchboardTools.server(
            flows: HookFixtures.shippedStore, floor: { Self.view }, version: "test", staffing: Loads(), timeZone: tokyo)
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": ["name": "queue_status", "arguments": ["language": "en"]],
        ]
        let response = try #require(await server.handle(request))
        guard case .array(let queues)? = response["result"]?["structuredContent"]?["queues"] else {
            Issue.record("no queues: \(response)")
            return
        }
        #expect(queues.count == 3)
        for queue in queues {
            let id = try #require(queue["queueId"]?.stringValue)
            guard case .number(let value)? = queue["agentsStaffed"] else {
                Issue.record("no agentsStaffed: \(queue)")
                continue
            }
            #expect(abs(value - (Self.expected[id] ?? .nan)) < 1e-12, "\(id): \(value)")
        }
        guard case .array(let content)? = response["result"]?["content"] else {
            Issue.record("no content: \(response)")
            return
        }
        let text = try #require(content.first?["text"]?.stringValue)
        #expect(text.contains("Reservations: 0 waiting, 1 agents available, 1.5 staffed"), "\(text)")

        // Without a forecast (serve has no database) an agent counts equally toward its queues:
        // a 1/2 + 1/2, b 1/2 + 1/2, c 1/3 each: Reservations 5/6, Delivery 4/3, Overflow 5/6.
        let equal = try #require(await FloorStaffing(floor: { Self.view }, source: nil, timeZone: tokyo).staffedNow())
        #expect(abs((equal.queues["arn:reservations"] ?? .nan) - 5.0 / 6) < 1e-12)
        #expect(abs((equal.queues["arn:delivery"] ?? .nan) - 4.0 / 3) < 1e-12)
        #expect(abs((equal.queues["arn:overflow"] ?? .nan) - 5.0 / 6) < 1e-12)
    }

    @Test("GET /v1/staffing carries staffed_now: the pool at the top, per queue in each queue; null without a floor")
    func route() async throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        // FixedSource plans queue "q" (named Q). x serves Q and Reservations: Reservations is
        // forecast 3 Erlangs now and Q nothing, so x counts wholly toward Reservations; y serves
        // Q alone and counts 1 there. The pool is 2.
        let queues = [Self.queue("q", "Q"), Self.queue("arn:reservations", "Reservations")]
        let agents = [Self.agent("x", .available, ["Q", "Reservations"]), Self.agent("y", .onContact, ["Q"])]
        let view = FloorView(
            businessDay: nil, serviceLevelThresholdSeconds: 20, agents: agents, queues: queues,
            summary: FloorSummary(agents: agents, queues: queues))
        for withFloor in [true, false] {
            let routes = StaffingRoutes(
                source: StaffingRoutesTests.FixedSource(), tokens: AccessTokens(["s3cret"]), timeZone: tokyo,
                floor: withFloor ? FloorStaffing(floor: { view }, source: Loads(), timeZone: tokyo) : nil,
                clock: { Date(timeIntervalSince1970: 1_795_000_000) })  // 2026-11-18, 16:06 in Japan
            let app = Application(router: buildRouter(dependencies: ServerDependencies(routeProviders: [routes])))
            try await app.test(.router) { client in
                // A date that is not the routes' today: the loads come from the source's current slot.
                try await client.execute(uri: "/v1/staffing?from=2026-12-30&token=s3cret", method: .get) { response in
                    #expect(response.status == .ok)
                    let json = try #require(
                        try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
                            as? [String: Any])
                    let queue = try #require((json["queues"] as? [[String: Any]])?.first)
                    #expect(queue["queue"] as? String == "q")
                    if withFloor {
                        #expect(json["staffed_now"] as? Int == 2)
                        #expect(queue["staffed_now"] as? Double == 1)
                    } else {
                        #expect(json["staffed_now"] is NSNull)
                        #expect(queue["staffed_now"] is NSNull)
                    }
                }
            }
        }
    }
}
