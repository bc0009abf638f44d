import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Primitives
import Synchronization
import Testing

@testable import Server

/// One caller's share of the expensive routes: so many running, so many waiting in order, the
/// rest refused at once; another caller is not held up.
@Suite("Caller budget")
struct CallerBudgetTests {
    /// The order the turns ran in.
    final class Order: Sendable {
        let items = Mutex<[Int]>([])
    }

    /// Polls `condition` for up to 10 s.
    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    @Test("one runs, the waiting ones go in order, one more is refused 429; a cancelled waiter frees its place")
    func budget() async throws {
        let budget = CallerBudget(concurrent: 1, waiting: 2)
        let gate = StartupGate()
        let order = Order()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                try await budget.run(for: "a") {
                    await gate.wait()
                    order.items.withLock { $0.append(0) }
                }
            }
            try await Self.until { budget.load(of: "a").running == 1 }
            for turn in 1...2 {
                tasks.addTask { try await budget.run(for: "a") { order.items.withLock { $0.append(turn) } } }
                try await Self.until { budget.load(of: "a").waiting == turn }
            }
            do {
                try await budget.run(for: "a") { Issue.record("a fourth request of a ran") }
                Issue.record("a fourth request of a was taken")
            } catch let error as APIError {
                #expect(error.status == .tooManyRequests)
                #expect(error.reason.contains("1 request(s) of this kind running and 2 waiting"))
            }
            // Another caller runs at once.
            #expect(try await budget.run(for: "b") { 42 } == 42)
            gate.open()
            try await tasks.waitForAll()
        }
        #expect(order.items.withLock { $0 } == [0, 1, 2])
        #expect(budget.load(of: "a") == (0, 0))

        // A waiter whose request went away leaves the queue: the next one takes its place.
        let held = StartupGate()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await budget.run(for: "c") { await held.wait() } }
            try await Self.until { budget.load(of: "c").running == 1 }
            let gone = Task { try await budget.run(for: "c") { Issue.record("a cancelled waiter ran") } }
            try await Self.until { budget.load(of: "c").waiting == 1 }
            gone.cancel()
            await #expect(throws: CancellationError.self) { try await gone.value }
            #expect(budget.load(of: "c").waiting == 0)
            held.open()
            try await tasks.waitForAll()
        }
        #expect(budget.load(of: "c") == (0, 0))
    }

    /// Answers at once, but a plan of the queue `slow` only once `gate` opens.
    struct GatedSource: StaffingSource {
        let gate: StartupGate
        func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String])
        {
            if request.queue == "slow" { await gate.wait() }
            return (try StaffingPlan(model: request.model, target: request.target, shrinkage: 0), [:])
        }
    }

    @Test("GET /v1/staffing: a token's sixth request at once is 429 with a JSON reason; another token goes on")
    func staffingRoutes() async throws {
        let gate = StartupGate()
        let budget = CallerBudget(concurrent: 1, waiting: 4)
        let app = Application(
            router: buildRouter(
                dependencies: ServerDependencies(routeProviders: [
                    StaffingRoutes(
                        source: GatedSource(gate: gate), tokens: AccessTokens(["s3cret-one", "s3cret-two"]),
                        timeZone: TimeZone(identifier: "Asia/Tokyo")!, budget: budget)
                ])))
        try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { tasks in
                for _ in 0..<5 {
                    tasks.addTask {
                        try await client.execute(
                            uri: "/v1/staffing?queue=slow&from=2026-12-02", method: .get,
                            headers: [.authorization: "Bearer s3cret-one"]
                        ) { $0.status }
                    }
                }
                try await Self.until { budget.load(of: "token:s3cret-one") == (1, 4) }
                try await client.execute(
                    uri: "/v1/staffing?queue=slow&from=2026-12-02", method: .get,
                    headers: [.authorization: "Bearer s3cret-one"]
                ) { response in
                    #expect(response.status == .tooManyRequests)
                    #expect(String(buffer: response.body).contains(#""error":"too_many_requests""#))
                }
                try await client.execute(
                    uri: "/v1/staffing?from=2026-12-02", method: .get, headers: [.authorization: "Bearer s3cret-two"]
                ) { response in
                    #expect(response.status == .ok, "another token is not held up")
                }
                gate.open()
                var statuses: [HTTPResponse.Status] = []
                for try await status in tasks { statuses.append(status) }
                #expect(statuses == Array(repeating: .ok, count: 5))
            }
        }
    }

    /// A reforecast that takes a little while and counts how many run at once.
    final class OverlapSource: IntradaySource {
        let counts = Mutex((running: 0, most: 0, calls: 0))

        func outlook(
            _ request: IntradayRequest, now: Double, live: (@Sendable ([String: Double]) async -> IntradayLive?)?
        ) async throws -> IntradayOutlook {
            counts.withLock { counts in
                counts.running += 1
                counts.calls += 1
                counts.most = max(counts.most, counts.running)
            }
            defer { counts.withLock { $0.running -= 1 } }
            try await Task.sleep(for: .milliseconds(20))
            return try IntradayFixtures.outlook()
        }
    }

    @Test("MCP staffing_outlook takes the caller's staffing turn: batches and the intraday route run one at a time")
    func outlookBatches() async throws {
        let token = "mcp-and-console-token-0123456789"
        let budget = CallerBudget(concurrent: 1, waiting: 4)
        let source = OverlapSource()
        let server = SwitchboardTools.server(
            flows: HookFixtures.shippedStore, floor: nil, version: "test", intraday: source, staffingBudget: budget,
            now: { Date(timeIntervalSince1970: 1_784_509_200) })
        let app = Application(
            router: buildRouter(
                dependencies: ServerDependencies(routeProviders: [
                    MCPRoutes(
                        server: server, configuration: MCPConfiguration(bearerTokens: [token]),
                        logger: Logger(label: "t")),
                    StaffingRoutes(
                        source: GatedSource(gate: .opened()), tokens: AccessTokens([token]),
                        timeZone: TimeZone(identifier: "Asia/Tokyo")!, intraday: source,
                        clock: { Date(timeIntervalSince1970: 1_784_509_200) }, budget: budget),
                ])))
        let call: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": ["name": "staffing_outlook", "arguments": [:]],
        ]
        let batch = ByteBuffer(bytes: try JSONValue.encoder.encode(JSONValue.array(Array(repeating: call, count: 4))))
        let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
        try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: [Bool].self) { tasks in
                for _ in 0..<3 {
                    tasks.addTask {
                        try await client.execute(uri: "/mcp", method: .post, headers: headers, body: batch) {
                            response in
                            let answers = try JSONDecoder().decode(
                                JSONValue.self, from: Data(response.body.readableBytesView))
                            guard case .array(let items) = answers else { return [false] }
                            return items.map { $0["result"]?["isError"] == false }
                        }
                    }
                }
                tasks.addTask {
                    try await client.execute(uri: "/v1/staffing/intraday", method: .get, headers: headers) {
                        [$0.status == .ok]
                    }
                }
                var answered: [Bool] = []
                for try await batch in tasks { answered += batch }
                #expect(answered == Array(repeating: true, count: 13))
            }
            let counts = source.counts.withLock { $0 }
            #expect(counts.calls == 13)
            #expect(counts.most == 1, "one caller's reforecasts run one at a time")

            // The caller's turn held and its four places taken: the tool says so, as the route's 429 does.
            let held = StartupGate()
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for _ in 0..<5 { tasks.addTask { try await budget.run(for: "token:" + token) { await held.wait() } } }
                try await Self.until { budget.load(of: "token:" + token) == (1, 4) }
                let single = ByteBuffer(bytes: try JSONValue.encoder.encode(call))
                try await client.execute(uri: "/mcp", method: .post, headers: headers, body: single) { response in
                    let answer = try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
                    #expect(answer["result"]?["isError"] == true)
                    #expect(answer["result"]?["structuredContent"]?["error"] == "too_many_requests")
                }
                held.open()
                try await tasks.waitForAll()
            }
        }
    }

    /// How many turns run at once, and the most that did.
    final class Overlap: Sendable {
        private let counts = Mutex((running: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }
        func begin() {
            counts.withLock { counts in
                counts.running += 1
                counts.most = max(counts.most, counts.running)
            }
        }
        func end() { counts.withLock { $0.running -= 1 } }
    }

    @Test("each turn runs on the budget's executor, at idle priority: its threads bound every caller's work")
    func executor() async throws {
        let budget = CallerBudget(concurrent: 1, waiting: 4, executor: ComputeExecutor(threads: 1))
        let overlap = Overlap()
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            for caller in ["a", "b", "c"] {
                tasks.addTask {
                    try await budget.run(for: caller) {
                        overlap.begin()
                        // A computation without a suspension point, as a plan is.
                        usleep(50_000)
                        overlap.end()
                        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                        return name.hasPrefix("TP-") && nice == ComputeExecutor.niceness
                            && sched_getscheduler(0) == ComputeExecutor.idlePolicy
                    }
                }
            }
            for try await onPool in tasks { #expect(onPool, "a turn ran on the executor's thread, at its priority") }
        }
        #expect(overlap.most == 1, "three callers' turns shared the executor's one thread")
    }
}
