import ArgumentParser

/// `switchboard staffing erlang|plan|backtest|seed|oracle`: agents needed per queue and interval (docs/staffing.md).
struct StaffingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "staffing",
        abstract: "How many agents each queue needs: the Erlang calculator and the plan from history.",
        subcommands: [
            StaffingErlangCommand.self, StaffingPlanCommand.self, StaffingBacktestCommand.self,
            StaffingSeedCommand.self, StaffingOracleCommand.self, StaffingIntradayCommand.self,
        ]
    )
}
