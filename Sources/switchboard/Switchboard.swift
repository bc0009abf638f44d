import ArgumentParser

/// The `switchboard` command line: every role of the system, and its tools.
@main
struct Switchboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "The event pipeline of a contact center: ingest, IVR hook, live status, SQL for analysts.",
        subcommands: [
            DevCommand.self, IngestCommand.self, ServeCommand.self, ReceiveCommand.self, SimulateCommand.self,
            MigrateCommand.self, BrokerCommand.self,
            ImportCommand.self, DeadLetterCommand.self, FlowsCommand.self, CalendarCommand.self, RollupCommand.self,
            RetentionCommand.self, StaffingCommand.self,
        ]
    )
}
