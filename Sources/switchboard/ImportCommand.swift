import ArgumentParser
import Foundation
import Logging
import Roles
import Services
import Storage

/// `switchboard import FILE...`: loads CTR files exported by Amazon Connect (Firehose to S3)
/// through ``CTRImport``.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import CTR files (NDJSON or concatenated JSON, optionally gzip) into PostgreSQL.",
        discussion: "Records go through the stream's write path: the version guard (a newer copy already "
            + "stored wins), the rollups, and dead_letter for what cannot be decoded. Each month gets its "
            + "partitions as the import reaches it. Records before the retention horizon (the months "
            + "`switchboard retention` dropped) go to dead_letter: backfill old history before the first "
            + "retention run, or with a --keep that covers it; the horizon never moves back."
    )

    @Argument(help: "CTR export files.")
    var files: [String]

    @Option(
        help:
            "Records read per batch (default: SWITCHBOARD_INGEST_BATCH_RECORDS); a transaction writes at most a lane's share."
    )
    var batchSize: Int?

    func validate() throws {
        for file in files where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read \(file)")
        }
        guard (batchSize ?? 1) > 0 else { throw ValidationError("--batch-size must be positive") }
    }

    func run() async throws {
        let settings = try Settings()
        LoggingSetup.bootstrap(settings)
        let files = self.files
        let analysts = AnalystSetup(settings: settings, logger: Logger(label: "switchboard"))
        let database = try settings.databaseConfiguration()
        let batchSize = self.batchSize ?? settings.ingestBatchRecords
        let outcome = try await OneShotDatabase.run(settings, analysts: analysts) { client, logger in
            try await CTRImport(batchSize: batchSize, flows: analysts.flows()).run(
                files: files,
                into: PipelineImportDestination(settings: settings, database: database, client: client, logger: logger))
        }
        let counts = outcome.counts
        print(
            "imported \(outcome.records) records from \(files.count) file(s): "
                + "\(counts.written) written, \(counts.outdated) older than stored, "
                + "\(counts.deadLetters) to dead_letter"
        )
    }
}
