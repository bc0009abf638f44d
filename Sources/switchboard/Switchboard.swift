import ArgumentParser

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

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
            RetentionCommand.self,
        ]
    )

    /// Line-buffers standard output, then runs the command.
    ///
    /// Standard output is block-buffered when it is a pipe or a file: `switchboard dev | tee
    /// run.log`, or a script waiting for the banner's URLs, would see `print`'s lines only when
    /// the buffer fills or the process exits.
    static func main() async {
        setvbuf(stdout, nil, _IOLBF, 0)
        await main(nil)
    }
}
