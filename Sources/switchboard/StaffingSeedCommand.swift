import ArgumentParser
import Foundation
import Primitives
import Roles
import Services

/// `switchboard staffing seed`: simulated history in an empty database, for trying the plan, the
/// console's staffing panel and the backtest before real history has accumulated.
struct StaffingSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Write simulated contact records ending now into an empty database (what `switchboard dev` seeds).",
        discussion: """
            The traffic simulation over the stores of flows/ (holidays, pre-holidays and weekends busier, closed
            hours quiet), written by the ingest writer. Without --days: the last 8 weeks and last year's holidays
            and pre-holidays. The history ends now, or at --until. Refused when contact_record has a row.

            Examples:
              switchboard staffing seed --days 365 && switchboard staffing backtest --weeks 8
              switchboard staffing seed --days 14 --until 2026-12-01
            """
    )

    @Option(help: "Seed every day of the last N days (1...800).")
    var days: Int?

    @Option(
        help: """
            Where the history ends: YYYY-MM-DD (that date's last contact, the date whole) or an ISO 8601 instant; \
            default: now.
            """)
    var until: String?

    @Option(
        help: """
            Share of store-days (0...1) whose rate a shock scales to the end of the business day: x1.6 from 11:00 \
            or x0.5 from 17:00, decided by the seed (overrides SWITCHBOARD_SIMULATOR_SHOCKS).
            """)
    var shocks: Double?

    func validate() throws {
        if let days, !(1...800).contains(days) { throw ValidationError("--days must be within 1...800 (got \(days))") }
        if let shocks, !(0...1).contains(shocks) { throw ValidationError("--shocks must be within 0...1") }
        if let until, Self.end(until) == nil {
            throw ValidationError(
                "--until must be YYYY-MM-DD or an ISO 8601 instant such as 2026-12-01T18:00:00+09:00 (got \(until))")
        }
    }

    /// The instant a seed of `--until` stands at: a date's next midnight in Japan plus the 15
    /// minutes the seeder leaves before "now", so that the date is seeded whole; an instant as it is.
    static func end(_ text: String) -> Date? {
        if let date = CivilDate(parsing: text) {
            let midnight = Double(date.adding(days: 1).dayNumber) * 86_400 - 9 * 3_600
            return Date(timeIntervalSince1970: midnight + 15 * 60)
        }
        return ISO8601DateFormatter().date(from: text)
    }

    func run() async throws {
        var overridden = try Settings()
        if let shocks { overridden.simulatorShocks = shocks }
        let settings = overridden
        LoggingSetup.bootstrap(settings)
        let days = self.days
        let now = until.flatMap(Self.end) ?? Date()
        let written = try await OneShotDatabase.run(settings) { client, logger in
            try await StaffingHistorySeeder(settings: settings, client: client, logger: logger)
                .seed(now: now, days: days)
        }
        guard let written else {
            throw ValidationError(
                "contact_record is not empty: simulated history is written only into an empty database")
        }
        print("seeded \(written) simulated contact records")
    }
}
