import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
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
}
