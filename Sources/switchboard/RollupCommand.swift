import ArgumentParser
import Foundation
import Roles
import Storage

/// `switchboard rollup rebuild|check`: recomputes the analyst rollups from the raw tables, or compares
/// the views that read them with their definitions over the raw tables.
struct RollupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollup",
        abstract: "Maintain the rollup tables the analyst views read.",
        subcommands: [Rebuild.self, Check.self]
    )

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute the rollups from the raw tables, in one transaction.",
            discussion: """
                The ingest keeps the rollups in the transaction of the rows, and changes of the stores,
                business days, holidays or analytics settings rebuild them by themselves. Rebuild after a
                new definition, rows written or edited by hand, or to be sure. Raw rows dropped by retention
                are gone: rebuild only ranges whose raw rows are kept. The rebuild goes month by month (in the
                business time zone); on a terminal, standard error shows the month and the rows so far.

                Examples:
                  switchboard rollup rebuild
                  switchboard rollup rebuild --from 2026-11-01 --to 2026-12-01
                  switchboard rollup rebuild --from 2026-11-18T01:00:00Z --to 2026-11-18T02:00:00Z
                """
        )

        @Option(help: "The first instant: a date (midnight in the business time zone) or an ISO 8601 time.")
        var from: String?

        @Option(help: "The end (exclusive), the same way.")
        var to: String?

        func run() async throws {
            let settings = try Settings()
            LoggingSetup.bootstrap(settings)
            let (from, to) = (self.from, self.to)
            try await OneShotDatabase.run(settings) { client, logger in
                let started = Date()
                let line = RebuildProgressLine()
                let counts = try await RollupStore(client: client, logger: logger)
                    .rebuild(from: from, to: to) { line.draw($0) }
                line.finish()
                let seconds = Date().timeIntervalSince(started)
                print(
                    "rebuilt \(counts.queueIntervals) queue intervals, \(counts.storeDays) store days, "
                        + "\(counts.agentIntervals) agent intervals in \(String(format: "%.1f", seconds)) s"
                )
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare the rollup-backed views with their definitions over the raw tables (slow).",
            discussion: "Exits with status 1 when a view differs."
        )

        func run() async throws {
            let settings = try Settings()
            LoggingSetup.bootstrap(settings)
            let differences = try await OneShotDatabase.run(settings) { client, logger in
                try await RollupStore(client: client, logger: logger).differences()
            }
            for difference in differences {
                print(
                    "\(difference.view): \(difference.onlyInView) rows only in the view, "
                        + "\(difference.onlyInDefinition) only in the definition"
                )
            }
            if differences.isEmpty {
                print("the rollups match the raw tables")
            } else {
                throw ExitCode(1)
            }
        }
    }
}
