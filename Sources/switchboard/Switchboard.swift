import ArgumentParser

/// The `switchboard` command line: every role of the system, and its tools.
@main
struct Switchboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "The event pipeline of a contact center: ingest, IVR hook, live status, SQL for analysts.",
        subcommands: [
            DevCommand.self, IngestCommand.self, MigrateCommand.self, DeadLetterCommand.self, ImportCommand.self,
            ServeCommand.self, BenchIngestCommand.self,
            CalendarCommand.self,
            FlowsCommand.self, BenchHookEvalCommand.self, BenchHookServeCommand.self, ConsoleDemoCommand.self,
            BenchConsoleCommand.self, SimulateCommand.self,
        ]
    )
}
