import ArgumentParser
import Foundation
import Logging
import PostgresNIO
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
            try await withDatabase { client, logger in
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
            try await withDatabase { client, logger in
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

/// Runs `body` with a connected client to the configured database (for one-shot commands).
func withDatabase(_ body: @Sendable (PostgresClient, Logger) async throws -> Void) async throws {
    let settings = try Settings()
    LoggingSetup.bootstrap(settings)
    let logger = Logger(label: "switchboard")
    let database = try DatabaseConfiguration(url: settings.databaseURL)
    let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        try await Migrator(client: client, logger: logger).migrate(SwitchboardSchema.migrations)
        try await body(client, logger)
    }
}
