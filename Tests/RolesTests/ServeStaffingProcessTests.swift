import Foundation
import Kafka
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// `switchboard serve` answers `/v1/staffing` through `SWITCHBOARD_STAFFING_DATABASE_URL`, as a
/// login of `switchboard_staffing_reader`, from the history the writer's `staffing plan` left;
/// without the setting it has no `/v1/staffing`.
@Suite("serve: staffing as the read-only staffing reader", .serialized, .enabled(if: TestDatabase.enabled), .watched)
struct ServeStaffingProcessTests {
    static let consoleToken = "console-token-for-staffing-tests"
    static let hookToken = "hook-token-for-staffing-tests"

    /// A `switchboard serve` on `cluster` with the hook's and the console's tokens and `extra`.
    static func serve(
        _ cluster: EmbeddedKafkaCluster, name: String, environment extra: [String: String] = [:]
    ) throws -> SwitchboardProcess {
        let port = LoopbackSocket.freePort()
        var environment = [
            "SWITCHBOARD_HOOK_TOKENS": hookToken,
            "SWITCHBOARD_CONSOLE_TOKENS": consoleToken,
            "SWITCHBOARD_FLOWS_DIR": Repository.flowsDirectory,
            "SWITCHBOARD_LOG_LEVEL": "info",
            "SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS": "0",
        ]
        environment.merge(extra) { $1 }
        return try SwitchboardProcess(
            ["serve", "--bootstrap", cluster.bootstrapServers], environment: environment, httpPort: port,
            log: FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(name)-\(port).log").path)
    }

    /// What shows that nothing was written: the history's last refresh, the rows of the history
    /// and of the plans.
    static func writes(_ client: PostgresClient) async throws -> String {
        let rows = try await client.query(
            """
            SELECT coalesce((SELECT refreshed_at::text FROM staffing_refresh), 'never') || ' '
                   || (SELECT count(*) FROM staffing_history) || ' ' || (SELECT count(*) FROM staffing_plan)
            """, logger: TestDatabase.logger)
        return try await rows.collect().first?.decode(String.self) ?? ""
    }

    @Test("200 with a plan from the writer's history and no write; 401 without the token; 404 without the setting")
    func staffingFromTheReader() async throws {
        try await TestDatabase.withFreshDatabase("serve_staffing") { client, configuration in
            // The writer's side, as production runs it: simulated history, then `staffing plan`
            // (the CronJob), which brings the history up to yesterday.
            try await TestDatabase.migrate(client)
            let writer = ProcessInfo.processInfo.environment.merging([
                "SWITCHBOARD_DATABASE_URL": TestDatabase.url(configuration, as: .writer),
                "SWITCHBOARD_LOG_LEVEL": "error",
            ]) { $1 }
            // History up to the test's instant, and its date planned: serve's own clock (the
            // gauges' now) is the wall clock, so every question below names the date it means.
            let seeded = try await ChildProcess.run(
                [SwitchboardProcess.binary, "staffing", "seed", "--days", "2", "--until", TestClock.iso8601],
                environment: writer, killAfter: .seconds(300))
            #expect(seeded.status == 0, "seed:\n\(seeded.output)")
            let today = TestClock.date().description
            let planned = try await ChildProcess.run(
                [
                    SwitchboardProcess.binary, "staffing", "plan", "--from", today, "--to", today, "--service-level",
                    "80/20",
                ], environment: writer, killAfter: .seconds(300))
            #expect(planned.status == 0, "staffing plan:\n\(planned.output)")
            // A refresh is due again: a planner that refreshed would write now, and be refused.
            try await client.query(
                "UPDATE staffing_refresh SET refreshed_at = now() - interval '1 day'", logger: TestDatabase.logger)
            let queues =
                try await client.query(
                    "SELECT count(DISTINCT queue)::int FROM staffing_source", logger: TestDatabase.logger
                ).collect().first?.decode(Int.self) ?? 0
            #expect(queues > 0, "the seeded history has queues")
            let before = try await Self.writes(client)

            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            for topic in ["agent-events", "contact-events"] { try cluster.createTopic(topic, partitions: 1) }
            let serve = try Self.serve(
                cluster, name: "reader",
                environment: [
                    "SWITCHBOARD_STAFFING_DATABASE_URL": TestDatabase.url(configuration, as: .staffingReader)
                ])
            defer { serve.kill() }
            #expect(await serve.waitUntilReady("/ready/hook", within: .seconds(60)), "serve starts:\n\(serve.log)")
            var staffing = URLComponents(
                url: serve.baseURL.appendingPathComponent("v1/staffing"), resolvingAgainstBaseURL: false)!
            staffing.queryItems = [URLQueryItem(name: "from", value: today), URLQueryItem(name: "to", value: today)]
            let url = staffing.url!
            let authorized = ["Authorization": "Bearer \(Self.consoleToken)"]
            let answered = await eventually(within: .seconds(60)) {
                await httpGet(url, headers: authorized)?.status == 200
            }
            #expect(answered, "GET /v1/staffing answers 200:\n\(serve.log)")
            let response = try #require(await httpGet(url, headers: authorized))
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any], "\(response.body)")
            let plan = try #require(json["queues"] as? [[String: Any]], "\(response.body)")
            #expect(
                plan.count == queues,
                "a plan for every queue with history \(TestClock.label): \(response.body.prefix(500))")
            #expect((json["now_date"] as? String).flatMap(CivilDate.init(parsing:)) != nil, "serve's today")
            #expect(await httpGet(url, headers: [:])?.status == 401, "the console's token is required")
            #expect(
                await httpGet(url, headers: ["Authorization": "Bearer not-the-console-token-at-all"])?.status == 401)
            // The intraday reforecast of today through the same reader: the plan `staffing plan`
            // stored, every queue, and a what-if beside; a malformed change is a 400 naming it.
            var intraday = URLComponents(
                url: serve.baseURL.appendingPathComponent("v1/staffing/intraday"), resolvingAgainstBaseURL: false)!
            intraday.queryItems = [
                URLQueryItem(name: "date", value: today), URLQueryItem(name: "at", value: TestClock.iso8601),
            ]
            let outlookResponse = try #require(await httpGet(intraday.url!, headers: authorized))
            #expect(outlookResponse.status == 200, "\(outlookResponse.body.prefix(500))\n\(serve.log)")
            let outlook = try #require(
                try JSONSerialization.jsonObject(with: Data(outlookResponse.body.utf8)) as? [String: Any])
            let source = (outlook["plan"] as? [String: Any])?["source"] as? String
            #expect(source == "stored", "today's plan is the one stored: \(outlookResponse.body.prefix(300))")
            let outlookQueues = try #require(outlook["queues"] as? [[String: Any]])
            #expect(
                outlookQueues.count == queues, "every queue \(TestClock.label): \(outlookResponse.body.prefix(300))")
            let firstQueue = try #require(outlookQueues.first?["queue"] as? String)
            intraday.queryItems = [
                URLQueryItem(name: "date", value: today), URLQueryItem(name: "at", value: TestClock.iso8601),
                URLQueryItem(name: "queue", value: firstQueue),
                URLQueryItem(name: "add_agents", value: "2@00:00-23:45"),
            ]
            let whatIf = try #require(await httpGet(intraday.url!, headers: authorized))
            #expect(whatIf.status == 200, "\(whatIf.body.prefix(500))")
            #expect(whatIf.body.contains("\"what_if\":{\"staffed\""), "a what-if per slot: \(whatIf.body.prefix(800))")
            intraday.queryItems = [URLQueryItem(name: "add_agents", value: "2@18:00")]
            let refused = try #require(await httpGet(intraday.url!, headers: authorized))
            #expect(refused.status == 400)
            #expect(refused.body.contains("add_agents"), "the reason names the parameter: \(refused.body)")
            #expect(await httpGet(intraday.url!, headers: [:])?.status == 401, "the console's token is required")
            // The shortfall gauges come from the same reforecast, one per queue.
            let exported = await eventually(within: .seconds(60)) {
                let metrics = await serve.body(of: "/metrics") ?? ""
                return metrics.components(separatedBy: "\nswitchboard_staffing_shortfall_agents{").count - 1 >= queues
            }
            #expect(exported, "switchboard_staffing_shortfall_agents for every queue:\n\(serve.log)")
            #expect(try await Self.writes(client) == before, "serve wrote nothing:\n\(serve.log)")
            #expect(serve.log.contains("switchboard_staffing_reader"), "the log names the role:\n\(serve.log)")
            #expect(!serve.log.contains("staffing is off"))
            await serve.stop()

            // The role's denial: the same login cannot write what a refresh writes.
            var reader = configuration
            reader.username = TestDatabase.Login.staffingReader.rawValue
            try await TestDatabase.withClient(reader) { reader in
                do {
                    try await reader.query(
                        "INSERT INTO staffing_refresh (refreshed_at, through_date) VALUES (now(), current_date)",
                        logger: TestDatabase.logger)
                    Issue.record("the staffing reader inserted into staffing_refresh")
                } catch let error as PSQLError {
                    #expect(error.serverInfo?[.sqlState] == "42501", "\(String(reflecting: error))")
                }
            }

            // Without the setting: as before, no /v1/staffing, and the log says why once.
            let without = try Self.serve(cluster, name: "without")
            defer { without.kill() }
            #expect(await without.waitUntilReady("/ready/hook", within: .seconds(60)), "serve starts:\n\(without.log)")
            #expect(await httpGet(url.withPort(without.httpPort), headers: authorized)?.status == 404)
            #expect(
                without.log.components(separatedBy: "staffing is off").count == 2,
                "logged once:\n\(without.log)")
            await without.stop()
            // The broker lives until both processes have stopped.
            withExtendedLifetime(cluster) {}
        }
    }
}

extension URL {
    /// This URL on `port`.
    fileprivate func withPort(_ port: Int) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.port = port
        return components.url!
    }
}
