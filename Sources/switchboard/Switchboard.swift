import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// The entry point: chooses the executor of Swift concurrency, then runs the command line.
///
/// By default (`SWITCHBOARD_EXECUTOR=nio`) SwiftNIO's event loops become Swift concurrency's global
/// executor, so a request handler resumes on the thread that reads its socket instead of hopping
/// to the cooperative pool and back: one thread switch less per await between I/O and handler.
/// Nothing in the process blocks a concurrency thread (the Kafka binding's blocking calls run on
/// their own `NIOThreadPool` thread). `SWITCHBOARD_EXECUTOR=swift` keeps Swift's default pool.
@main
enum Main {
    static func main() async {
        if Settings.usesEventLoopExecutor(environment: ProcessInfo.processInfo.environment) {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        await Switchboard.main()
    }
}

/// The `switchboard` command line: every role of the system, and its tools.
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
