import ArgumentParser
import Foundation
import Roles
import Storage

/// `switchboard retention --keep 13mo`: drops the raw tables' monthly partitions older than the
/// kept months; the rollups keep every period.
struct RetentionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Drop the raw tables' months older than what to keep (the rollups stay).",
        discussion: "contact_record, agent_event and contact_event are partitioned by UTC month. This moves "
            + "the retention horizon to the start of the month that many months before the current one, drops "
            + "every partition that ends at or before it, and from then on the ingest sends rows before the "
            + "horizon to the dead-letter table (the rollups of that period could not take them). The rollups "
            + "keep every month. The horizon never moves back. Run it daily (cron, a Kubernetes CronJob).\n\n"
            + "Examples:\n  switchboard retention --keep 13mo --dry-run\n  switchboard retention --keep 13mo"
    )

    @Option(help: "How many whole UTC months to keep before the current one: 13mo, 2y, or a number of months.")
    var keep: String

    @Flag(help: "Only list the partitions it would drop.")
    var dryRun = false

    func validate() throws {
        _ = try Self.months(keep)
    }

    /// `13mo`, `13`, `2y` → months.
    static func months(_ text: String) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (digits, factor): (Substring, Int) =
            if trimmed.hasSuffix("mo") {
                (trimmed.dropLast(2), 1)
            } else if trimmed.hasSuffix("y") {
                (trimmed.dropLast(), 12)
            } else {
                (Substring(trimmed), 1)
            }
        guard let count = Int(digits), count > 0, count <= 1200 else {
            throw ValidationError("--keep takes a number of months such as 13mo, or years such as 2y (got \(text))")
        }
        return count * factor
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        let months = try Self.months(keep)
        let dryRun = self.dryRun
        let dropped = try await OneShotDatabase.verified(settings) { client, logger in
            try await RawRetentionStore(client: client, logger: logger).apply(keepMonths: months, dryRun: dryRun)
        }
        for partition in dropped {
            print("\(dryRun ? "would drop" : "dropped") \(partition.name) (ends \(partition.rangeEnd))")
        }
        print(
            dropped.isEmpty
                ? "nothing older than \(months) months"
                : "\(dropped.count) partitions \(dryRun ? "would be" : "were") dropped; the rollups keep their figures")
    }
}
