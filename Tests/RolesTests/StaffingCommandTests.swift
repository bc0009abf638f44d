import ContactCenter
import Foundation
import PostgresNIO
import Primitives
import Roles
import Services
import SwitchboardTesting
import Testing

/// `switchboard staffing` as an operator runs it: the built binary, its output and exit status;
/// and the plan's request checks, which need no database.
@Suite("switchboard staffing: the binary and the plan's request checks", .watched)
struct StaffingCommandTests {
    /// Runs the binary with `arguments` (separated by spaces); its exit status and what it printed
    /// (both streams).
    static func run(_ arguments: String) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run([SwitchboardProcess.binary] + arguments.split(separator: " ").map(String.init))
    }

    @Test("staffing erlang --json prints one object with the documented names (pyworkforce's vector: 14, 20 scheduled)")
    func erlangJSON() async throws {
        let (status, output) = try await Self.run(
            "staffing erlang --volume 100 --interval-minutes 30 --aht 180 --service-level 80/20 --shrinkage 0.3 --json")
        #expect(status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["agents"] as? Int == 14)
        #expect(json["scheduled_agents"] as? Int == 20)
        #expect(json.count == 8)
    }

    @Test("bad input exits non-zero with a message that says what is wrong")
    func badInput() async throws {
        let (status, output) = try await Self.run(
            "staffing erlang --volume 100 --interval-minutes 30 --aht 180 --service-level 100/20")
        #expect(status != 0)
        #expect(output.contains("outside (0 %, 100 %)"))
    }

    @Test("a refused plan request names the command line's options, checked before any database")
    func refusedRequest() async throws {
        let (status, output) = try await Self.run(
            "staffing plan --from 2027-01-04 --to 2026-12-28 --service-level 80/20")
        #expect(status != 0)
        #expect(output.contains("--from 2027-01-04 is after --to 2026-12-28"), "\(output)")
        let (badShrinkage, shrinkageOutput) = try await Self.run(
            "staffing plan --from 2027-01-04 --to 2027-01-04 --service-level 80/20 --shrinkage 1.5")
        #expect(badShrinkage != 0)
        #expect(shrinkageOutput.contains("shrinkage 1.5 is outside [0, 0.9]"), "\(shrinkageOutput)")
        #expect(shrinkageOutput.contains("(--shrinkage)"), "\(shrinkageOutput)")
    }

    @Test("--from and --to take today and tomorrow in the console's time zone (a CronJob's dates)")
    func relativeDates() async throws {
        // The dates are the wall clock's (the CronJob's today), so the test reads no clock: it
        // holds the two dates the refusal names to each other, tomorrow being today's next day.
        let (status, output) = try await Self.run("staffing plan --from tomorrow --to today --service-level 80/20")
        #expect(status != 0)
        let words = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        // "--from D1 is after --to D2"
        let after = try #require(
            words.indices.first { $0 >= 2 && $0 + 2 < words.count && words[$0 - 1] == "is" && words[$0] == "after" },
            "\(output)")
        let (from, to) = (words[after - 2], words[after + 2])
        let tomorrow = try #require(CivilDate(parsing: from), "\(output)")
        let today = try #require(CivilDate(parsing: to), "\(output)")
        #expect(tomorrow == today.adding(days: 1), "\(output)")
        #expect(output.contains("--from \(from) is after --to \(to)"), "\(output)")
    }
}

/// `switchboard staffing plan` end to end: simulated history, then the plan printed as CSV and
/// stored, queue by queue while it is staffed. Two seeded days (yesterday is the history) keep it
/// short; day types without history fall back, with notes.
@Suite("switchboard staffing plan over a seeded database", .enabled(if: TestDatabase.enabled), .watched)
struct StaffingPlanProcessTests {
    @Test("the CSV printed is the plan stored: one interval per staffed row, the same agents, the notes")
    func planPrintedIsPlanStored() async throws {
        try await TestDatabase.withFreshDatabase("staffing_plan") { client, configuration in
            // `switchboard migrate` as the owner, then the command as a member of switchboard_writer.
            try await TestDatabase.migrate(client)
            let url = TestDatabase.url(configuration, as: .writer)
            let environment = ProcessInfo.processInfo.environment.merging([
                "SWITCHBOARD_DATABASE_URL": url, "SWITCHBOARD_LOG_LEVEL": "error",
            ]) { $1 }
            let seeded = try await ChildProcess.run(
                [SwitchboardProcess.binary, "staffing", "seed", "--days", "2", "--until", TestClock.iso8601],
                environment: environment)
            #expect(seeded.status == 0, "seed:\n\(seeded.output)")
            // The test's today and the day after tomorrow in the business time zone, as the seeder
            // counts days.
            let today = TestClock.date().description
            let later = TestClock.date().adding(days: 2).description
            let (status, output) = try await ChildProcess.run(
                [
                    SwitchboardProcess.binary, "staffing", "plan", "--from", today, "--to", later, "--service-level",
                    "80/20", "--shrinkage", "0.25", "--format", "csv",
                ], environment: environment)
            #expect(status == 0, "plan:\n\(output)")
            // Both streams: the notes (standard error) and the CSV.
            let lines = output.split(separator: "\n").map(String.init)
            let header = try #require(lines.firstIndex { $0.hasPrefix("queue,date,time,") })
            let rows = lines[(header + 1)...].filter { !$0.hasPrefix("note: ") }.map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(rows.count > 100)
            #expect(rows.allSatisfy { $0.count == 14 })
            let staffed = rows.filter { !$0[7].isEmpty }
            #expect(!staffed.isEmpty)
            let agents = staffed.reduce(0) { $0 + (Int($1[7]) ?? -1_000_000) }
            let scheduled = staffed.reduce(0) { $0 + (Int($1[9]) ?? -1_000_000) }

            let stored = try await client.query(
                """
                SELECT count(*)::int, coalesce(sum(i.agents), 0)::int, coalesce(sum(i.scheduled_agents), 0)::int,
                       count(DISTINCT i.interval_start)::int, min(p.shrinkage), min(p.from_date)::text,
                       min(p.to_date)::text,
                       NOT EXISTS (SELECT FROM staffing_plan_interval o
                                   WHERE NOT EXISTS (SELECT FROM staffing_plan q WHERE q.plan_id = o.plan_id))
                FROM staffing_plan p JOIN staffing_plan_interval i USING (plan_id)
                """, logger: TestDatabase.logger)
            var found = false
            for try await (count, storedAgents, storedScheduled, starts, shrinkage, from, to, one) in stored.decode(
                (Int, Int, Int, Int, Double, String, String, Bool).self)
            {
                found = true
                #expect(count == staffed.count)
                #expect(storedAgents == agents)
                #expect(storedScheduled == scheduled)
                #expect(starts == Set(staffed.map { $0[1] + " " + $0[2] }).count)
                #expect(shrinkage == 0.25)
                #expect(from == today && to == later)
                #expect(one, "every interval belongs to the plan")
            }
            #expect(found)
            // Each printed note is stored with the plan.
            let notes = lines.filter { $0.hasPrefix("note: ") }.map { String($0.dropFirst(6)) }
            let storedNotes = try await client.query("SELECT notes FROM staffing_plan", logger: TestDatabase.logger)
            for try await list in storedNotes.decode([String].self) { #expect(list == notes, "\(output)") }

            // Business days rewritten while a plan reads (the analysts' setup beside it): the plan
            // reads again and follows them. The probe is a day without a closure in flows/.
            var probe = ""
            let free = try await client.query(
                """
                SELECT min(d)::date::text FROM generate_series(\(today)::date + 1, \(today)::date + 90, interval '1 day') d
                WHERE NOT EXISTS (SELECT FROM store_business_day b
                                  WHERE b.business_date = d::date AND b.day_type = 'closure')
                """, logger: TestDatabase.logger)
            for try await date in free.decode(String.self) { probe = date }
            let planner = StaffingPlanner(client: client, logger: TestDatabase.logger)
            let day = try #require(CivilDate(parsing: probe))
            let request = try StaffingPlanRequest(
                dates: day...day, queue: nil, model: .erlangA, target: try ServiceTarget(parsing: "80/20"),
                shrinkage: 0)
            let (kept, _) = try await planner.planAndSave(request, rereadIf: { false })
            #expect(!kept.plan.rows.isEmpty && !kept.plan.rows.contains { $0.forecast.dayTypes.contains(.closure) })
            let (reread, _) = try await planner.planAndSave(
                request,
                rereadIf: {
                    try await client.query(
                        "UPDATE store_business_day SET day_type = 'closure' WHERE business_date = \(probe)::date",
                        logger: TestDatabase.logger)
                    return true
                })
            #expect(reread.plan.rows.count == kept.plan.rows.count)
            #expect(reread.plan.rows.allSatisfy { $0.forecast.dayTypes == [.closure] && $0.forecast.offered == 0 })
        }
    }
}
