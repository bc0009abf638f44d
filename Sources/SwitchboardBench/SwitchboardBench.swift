import ArgumentParser

/// `switchboard-bench`: the benchmarks, load generators and the console demo of `make bench-*`
/// and the browser test. Not part of the production image.
@main
struct SwitchboardBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard-bench",
        abstract:
            "Benchmarks, load generators and test tools for Switchboard (make bench-ingest, bench-hook, bench-console, bench-receiver).",
        subcommands: [
            BenchIngestCommand.self, BenchHookEvalCommand.self, BenchHookServeCommand.self, BenchConsoleCommand.self,
            BenchReceiverCommand.self, BenchDecodeCommand.self,
            ConsoleDemoCommand.self, TopicDumpCommand.self,
        ]
    )
}
