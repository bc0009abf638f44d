import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Primitives
import Testing

@testable import Server

/// `staffing_outlook` over a hand-made outlook (IntradayFixtures: 1 Erlang per slot, 3 agents
/// needed, Reservations 2 staffed, Delivery 3, Overflow planned only in the evening): its window,
/// figures, texts in both languages, argument checks and refusals, and the same numbers as
/// `GET /v1/staffing/intraday`.
@Suite("MCP staffing_outlook")
struct StaffingOutlookToolTests {
    static func server(_ source: IntradayFixtures.ScriptedSource?) -> MCPServer {
        SwitchboardTools.server(
            flows: HookFixtures.shippedStore, floor: nil, version: "test", intraday: source,
            now: { Date(timeIntervalSince1970: 1_784_509_200) })
    }

    static func call(_ server: MCPServer, _ arguments: JSONValue) async throws -> JSONValue {
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": ["name": "staffing_outlook", "arguments": arguments],
        ]
        return try #require(await server.handle(request)?["result"])
    }

    static func text(_ result: JSONValue) -> String {
        guard case .array(let content)? = result["content"] else { return "" }
        return content.compactMap { $0["text"]?.stringValue }.joined()
    }

    static func queues(_ result: JSONValue) -> [String: JSONValue] {
        guard case .array(let queues)? = result["structuredContent"]?["queues"] else { return [:] }
        return Dictionary(uniqueKeysWithValues: queues.compactMap { q in q["name"]?.stringValue.map { ($0, q) } })
    }

    static func slots(_ queue: JSONValue?) -> [JSONValue] {
        guard case .array(let slots)? = queue?["slots"] else { return [] }
        return slots
    }

    @Test("listed only where an intraday source is")
    func listing() async throws {
        let list: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "tools/list"]
        for source in [IntradayFixtures.ScriptedSource([.success(try IntradayFixtures.outlook())]), nil] {
            let answer = try #require(await Self.server(source).handle(list))
            guard case .array(let tools)? = answer["result"]?["tools"] else {
                Issue.record("no tools: \(answer)")
                continue
            }
            let names = tools.compactMap { $0["name"]?.stringValue }
            #expect(names.contains("staffing_outlook") == (source != nil), "\(names)")
            #expect(names.contains("queue_status"))
        }
    }

    @Test("the next hour per queue: slots, agents needed against staffed, service level, shortfall")
    func nextHour() async throws {
        let source = IntradayFixtures.ScriptedSource([.success(try IntradayFixtures.outlook())])
        let result = try await Self.call(Self.server(source), ["hours": 1, "language": "en"])
        #expect(result["isError"] == false)
        let content = try #require(result["structuredContent"])
        #expect(content["date"] == "2026-07-20")
        #expect(content["at"] == "10:00")
        #expect(content["hours"] == 1)
        #expect(content["staffedFrom"] == "floor")
        #expect(content["target"]?["serviceLevel"] == .number(0.8))
        let queues = Self.queues(result)
        #expect(Set(queues.keys) == ["Reservations", "Delivery", "Overflow"])

        let reservations = queues["Reservations"]
        #expect(reservations?["queueId"] == "arn:reservations")
        #expect(reservations?["shortfallNextHour"] == 1)
        #expect(reservations?["missesTargetNextHour"] == true)
        let slots = Self.slots(reservations)
        #expect(slots.map { $0["start"]?.stringValue } == ["10:00", "10:15", "10:30", "10:45"])
        for slot in slots {
            #expect(slot["reforecastContacts"] == 10)
            #expect(slot["planContacts"] == 10)
            #expect(slot["agentsNeeded"] == 3)
            #expect(slot["staffed"] == 2)
            // 1 − 1/3 × e^(−20/90), four decimals.
            #expect(slot["serviceLevel"] == .number(0.7331))
        }

        let delivery = queues["Delivery"]
        #expect(delivery?["shortfallNextHour"] == 0)
        #expect(delivery?["missesTargetNextHour"] == false)
        // 1 − 1/11 × e^(−40/90), four decimals.
        #expect(Self.slots(delivery).map { $0["serviceLevel"] } == Array(repeating: .number(0.9417), count: 4))

        let overflow = queues["Overflow"]
        #expect(overflow?["shortfallNextHour"] == .null)
        #expect(Self.slots(overflow).isEmpty)

        let text = Self.text(result)
        #expect(text.contains("Reservations: 1 agent short in the next hour; predicted to miss its target"), "\(text)")
        #expect(
            text.contains("10:15 10 contacts expected, agents needed 3, staffed 2, service level 73%"), "\(text)")
        #expect(text.contains("Delivery: no shortfall in the next hour\n"), "\(text)")
        #expect(text.contains("Overflow: no agents needed or staffed in the next hour"), "\(text)")
        #expect(source.requests.first?.queue == nil)
    }

    @Test("three hours by default, one queue by name, Japanese by default")
    func defaults() async throws {
        let source = IntradayFixtures.ScriptedSource([
            .success(try IntradayFixtures.outlook(queues: ["arn:reservations"]))
        ])
        let result = try await Self.call(Self.server(source), ["queue": "Reservations"])
        #expect(result["structuredContent"]?["hours"] == 3)
        // Planned 10:00–12:00: the eight slots of the plan within the three hours.
        #expect(Self.slots(Self.queues(result)["Reservations"]).count == 8)
        #expect(source.requests.first?.queue == "Reservations")
        #expect(source.requests.first?.target.serviceLevel == 0.8)
        let text = Self.text(result)
        #expect(text.contains("今後3時間"), "\(text)")
        #expect(text.contains("Reservations：今後1時間で1人不足、サービスレベル目標を下回る見込み"), "\(text)")
        #expect(text.contains("11:45 予測10件、必要3人、在席2人、サービスレベル73%"), "\(text)")
    }

    @Test("hours outside 1...12 or not whole, an unknown queue and a failing source are errors the model can act on")
    func refusals() async throws {
        let outlook = try IntradayFixtures.outlook()
        let server = Self.server(IntradayFixtures.ScriptedSource([.success(outlook)]))
        for hours: JSONValue in [0, 13, .number(2.5), "3"] {
            let result = try await Self.call(server, ["hours": hours])
            #expect(result["isError"] == true, "\(hours)")
            #expect(result["structuredContent"]?["error"] == "invalid_argument", "\(hours)")
            #expect(Self.text(result).contains("hours"), "\(hours)")
        }
        let unknown = StaffingRequestError(.queue, .unknownQueue("nope", known: ["Reservations", "Delivery"]))
        let refused = try await Self.call(
            Self.server(IntradayFixtures.ScriptedSource([.failure(unknown)])), ["queue": "nope"])
        #expect(refused["isError"] == true)
        #expect(refused["structuredContent"]?["error"] == "unknown_queue")
        #expect(Self.text(refused).contains("nope"), "\(Self.text(refused))")

        let failed = try await Self.call(
            Self.server(IntradayFixtures.ScriptedSource([.failure(IntradayFixtures.SecretError())])), [:])
        #expect(failed["isError"] == true)
        #expect(failed["structuredContent"]?["error"] == "staffing_unavailable")
        #expect(!Self.text(failed).contains("hunter2"))
    }

    @Test("the same numbers as GET /v1/staffing/intraday for the same outlook")
    func agreesWithEndpoint() async throws {
        let outlook = try IntradayFixtures.outlook()
        let source = IntradayFixtures.ScriptedSource([.success(outlook)])
        let tool = try await Self.call(Self.server(source), ["hours": 12])
        let routes = StaffingRoutes(
            source: StaffingRoutesTests.FixedSource(), tokens: AccessTokens(["s3cret"]),
            timeZone: TimeZone(identifier: "Asia/Tokyo")!, intraday: source)
        let app = Application(router: buildRouter(dependencies: ServerDependencies(routeProviders: [routes])))
        let body = try await app.test(.router) { client in
            try await client.execute(uri: "/v1/staffing/intraday?token=s3cret", method: .get) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
        }
        let endpoint = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
        guard case .array(let endpointQueues)? = endpoint["queues"] else {
            Issue.record("no queues: \(body)")
            return
        }
        let toolQueues = Self.queues(tool)
        #expect(endpointQueues.count == toolQueues.count)
        var compared = 0
        for queue in endpointQueues {
            let name = try #require(queue["queue_name"]?.stringValue)
            let mine = toolQueues[name]
            #expect(mine?["shortfallNextHour"] == queue["shortfall_next_hour"], "\(name)")
            #expect(mine?["missesTargetNextHour"] == queue["misses_target_next_hour"], "\(name)")
            guard case .array(let theirs)? = queue["slots"] else { continue }
            let byStart = Dictionary(
                uniqueKeysWithValues: theirs.compactMap { s in s["start"]?.stringValue.map { ($0, s) } })
            for slot in Self.slots(mine) {
                let other = try #require(byStart[slot["start"]?.stringValue ?? ""])
                #expect(slot["reforecastContacts"] == other["reforecast_offered"])
                #expect(slot["agentsNeeded"] == other["agents_needed"])
                #expect(slot["staffed"] == other["staffed"])
                #expect(slot["serviceLevel"] == other["service_level"])
                compared += 1
            }
        }
        #expect(compared == 20)  // 8 + 8 + Overflow's 4 evening slots within 12 hours
    }
}
