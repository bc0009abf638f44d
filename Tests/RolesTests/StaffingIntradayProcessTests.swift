import Foundation
import PostgresNIO
import Primitives
import SwitchboardTesting
import Testing

/// `switchboard staffing intraday` end to end: simulated history, then yesterday replayed at two
/// instants. The contacts each replay counts per slot are checked against `staffing_history`,
/// which `staffing_history_refresh` files from the same records by another path.
@Suite("switchboard staffing intraday over a seeded database", .enabled(if: TestDatabase.enabled), .watched)
struct StaffingIntradayProcessTests {
    @Test("--at replays a day from the contacts' timestamps; what-if moves agents between queues")
    func replay() async throws {
        try await TestDatabase.withFreshDatabase("staffing_intraday") { client, configuration in
            try await TestDatabase.migrate(client)
            let environment = ProcessInfo.processInfo.environment.merging([
                "SWITCHBOARD_DATABASE_URL": TestDatabase.url(configuration, as: .writer),
                "SWITCHBOARD_LOG_LEVEL": "error",
            ]) { $1 }
            // Two days of history up to the test's instant: on the pinned Wednesday that is Monday,
            // Tuesday and Wednesday's morning, so yesterday's plan has only Monday's history, the
            // day bar-late is closed. Its queue has no forecast and no contact before 19:00, and the
            // replay still lists it, with an empty plan.
            let seeded = try await ChildProcess.run(
                [SwitchboardProcess.binary, "staffing", "seed", "--days", "2", "--until", TestClock.iso8601],
                environment: environment)
            #expect(seeded.status == 0, "seed:\n\(seeded.output)")
            let today = TestClock.date().description
            let yesterday = TestClock.date().adding(days: -1).description
            // `staffing plan` refreshes the history through yesterday.
            let planned = try await ChildProcess.run(
                [
                    SwitchboardProcess.binary, "staffing", "plan", "--from", today, "--to", today, "--service-level",
                    "80/20", "--format", "csv",
                ], environment: environment)
            #expect(planned.status == 0, "plan:\n\(planned.output)")
            var history: [String: [Int: Double]] = [:]
            let rows = try await client.query(
                """
                SELECT queue, slot::int, sum(offered)::float8 FROM staffing_history
                WHERE business_date = \(yesterday)::date GROUP BY queue, slot
                """, logger: TestDatabase.logger)
            for try await (queue, slot, offered) in rows.decode((String, Int, Double).self) {
                history[queue, default: [:]][slot] = offered
            }
            #expect(!history.isEmpty, "yesterday has history")
            // Every queue the center has: those with history on any date. A store closed yesterday
            // (soba on Wednesdays) has a queue without yesterday's history, still replayed.
            var centre: Set<String> = []
            let queueRows = try await client.query(
                "SELECT DISTINCT queue FROM staffing_history", logger: TestDatabase.logger)
            for try await queue in queueRows.decode(String.self) { centre.insert(queue) }

            func replay(_ at: String, _ extra: [String] = []) async throws -> [[String: Any]] {
                let (status, output) = try await ChildProcess.run(
                    [
                        SwitchboardProcess.binary, "staffing", "intraday", "--date", yesterday, "--at", at, "--format",
                        "json",
                    ] + extra, environment: environment)
                #expect(status == 0, "intraday --at \(at):\n\(output)")
                let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") })
                let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(json["date"] as? String == yesterday)
                return try #require(json["queues"] as? [[String: Any]])
            }
            func slots(_ queue: [String: Any]) -> [[String: Any]] { queue["slots"] as? [[String: Any]] ?? [] }

            // At 18:00 slots before 72 are closed, and each holds what the history holds.
            let evening = try await replay("18:00")
            #expect(
                Set(evening.compactMap { $0["queue"] as? String }) == centre,
                "every queue of the center is replayed \(TestClock.label)")
            #expect(Set(history.keys).isSubset(of: centre))
            var compared = 0
            for queue in evening {
                let id = try #require(queue["queue"] as? String)
                for slot in slots(queue) {
                    let index = try #require(slot["slot"] as? Int)
                    let state = try #require(slot["state"] as? String)
                    #expect(state == (index < 72 ? "closed" : "future"), "slot \(index) at 18:00")
                    let actual = slot["actual_offered"] as? Double
                    if index < 72 {
                        #expect((actual ?? 0) == (history[id]?[index] ?? 0), "queue \(id) slot \(index)")
                        compared += 1
                    } else {
                        #expect(actual == nil, "nothing known after 18:00: queue \(id) slot \(index)")
                    }
                }
            }
            #expect(compared > 50)
            // At 20:00 the slots 72–79 are known too, and those before 18:00 have not moved.
            let later = try await replay("20:00")
            var evening72to79 = 0.0
            for queue in later {
                let id = try #require(queue["queue"] as? String)
                for slot in slots(queue) {
                    let index = try #require(slot["slot"] as? Int)
                    guard index < 80 else { continue }
                    #expect(slot["state"] as? String == "closed")
                    #expect((slot["actual_offered"] as? Double ?? 0) == (history[id]?[index] ?? 0))
                    if index >= 72 { evening72to79 += slot["actual_offered"] as? Double ?? 0 }
                }
            }
            #expect(evening72to79 > 0, "contacts between 18:00 and 20:00")

            // Two agents move from one queue to another for 18:00–19:00: one side gains, the other loses.
            // Between two queues whose plan staffs 18:00.
            let names = evening.filter { queue in
                slots(queue).contains { $0["slot"] as? Int == 72 && $0["staffed"] is Double }
            }.compactMap { $0["queue_name"] as? String }.sorted()
            try #require(names.count >= 2, "two queues staffed at 18:00 \(TestClock.label)")
            let (from, to) = (names[0], names[1])
            let moved = try await replay("18:00", ["--move-agents", "2:\(from)->\(to)@18:00-19:00"])
            for queue in moved {
                let name = queue["queue_name"] as? String
                guard name == from || name == to else { continue }
                for slot in slots(queue) {
                    let index = try #require(slot["slot"] as? Int)
                    let whatIf = slot["what_if"] as? [String: Any]
                    guard (72..<76).contains(index) else {
                        #expect(whatIf == nil, "no change outside the window: \(name ?? "") slot \(index)")
                        continue
                    }
                    guard let staffed = slot["staffed"] as? Double else { continue }
                    let changed = try #require(whatIf?["staffed"] as? Double, "\(name ?? "") slot \(index)")
                    #expect(changed == (name == to ? staffed + 2 : max(0, staffed - 2)))
                }
            }
        }
    }

    @Test("refusals name the option, before any database")
    func refusals() async throws {
        let missingQueue = try await ChildProcess.run(
            [SwitchboardProcess.binary, "staffing", "intraday", "--add-agents", "2@18:00-19:00"],
            environment: ProcessInfo.processInfo.environment.merging([
                "SWITCHBOARD_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"
            ]) { $1 })
        #expect(missingQueue.status != 0)
        #expect(missingQueue.output.contains("--add-agents: needs a queue"), "\(missingQueue.output)")
        let badAt = try await ChildProcess.run(
            [SwitchboardProcess.binary, "staffing", "intraday", "--at", "6pm"],
            environment: ProcessInfo.processInfo.environment.merging([
                "SWITCHBOARD_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"
            ]) { $1 })
        #expect(badAt.status != 0)
        #expect(badAt.output.contains("--at: must be HH:MM"), "\(badAt.output)")
    }
}
