import ArgumentParser
import Foundation
import Roles
import Storage

/// `switchboard dlq list|replay`: inspect and replay the dead-letter table.
struct DeadLetterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dlq",
        abstract: "Inspect and replay records that could not be ingested.",
        subcommands: [List.self, Replay.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List dead letters, newest first.")

        @Option(help: "The most rows to show.")
        var limit = 50

        @Flag(help: "Include records already replayed.")
        var all = false

        func run() async throws {
            let settings = try Settings()
            LoggingSetup.bootstrap(settings)
            try await OneShotDatabase.run(settings) { client, logger in
                let entries = try await DeadLetterStore(client: client, logger: logger).list(
                    limit: limit, includeReplayed: all)
                if entries.isEmpty {
                    print("no dead letters")
                    return
                }
                for entry in entries {
                    let replayed = entry.replayedAt.map { "  replayed \($0.formatted(.iso8601))" } ?? ""
                    print(
                        "#\(entry.id)  \(entry.topic)[\(entry.partition)]@\(entry.offset)  \(entry.size) bytes  "
                            + "\(entry.firstSeen.formatted(.iso8601))\(replayed)\n    \(entry.error)"
                    )
                }
            }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-validate dead letters and move those that now decode into the tables."
        )

        @Option(name: .customLong("id"), help: "Replay only these ids (repeatable); all pending ones by default.")
        var ids: [Int64] = []

        func run() async throws {
            let settings = try Settings()
            LoggingSetup.bootstrap(settings)
            try await OneShotDatabase.run(settings) { client, logger in
                let result = try await DeadLetterStore(client: client, logger: logger).replay(
                    ids: ids.isEmpty ? nil : ids,
                    decoder: IngestDecoder(
                        topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes)
                )
                print("replayed \(result.replayed), still invalid \(result.stillInvalid)")
            }
        }
    }
}
