import ArgumentParser
import ContactCenter

/// `switchboard staffing erlang`: the calculator planners use with a forecast of their own.
struct StaffingErlangCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erlang",
        abstract: "Agents needed for one interval's traffic (Erlang C, or Erlang A with --patience).",
        discussion: """
            Without --agents it finds the smallest staffing meeting the targets; with it, it evaluates
            that staffing. The service level targeted is answered within X over offered; Connect's
            (removed from the queue within X over queued) is printed beside it.

            Examples:
              switchboard staffing erlang --volume 100 --interval-minutes 30 --aht 180 --service-level 80/20
              switchboard staffing erlang --volume 100 --interval-minutes 30 --aht 180 --service-level 80/20 \\
                --patience 90 --max-occupancy 0.85 --shrinkage 0.3 --json
            """
    )

    @Option(help: "Contacts offered (queued) in the interval.")
    var volume: Double

    @Option(help: "The interval's length, minutes.")
    var intervalMinutes: Double = 15

    @Option(help: "Average handle time (talk + hold + after-contact work), seconds.")
    var aht: Double

    @Option(help: "The target: P/X, P % answered within X seconds, e.g. 80/20.")
    var serviceLevel: String

    @Option(help: "Evaluate this many agents instead of finding the fewest.")
    var agents: Int?

    @Option(help: "Callers' mean patience, seconds: Erlang A (callers hang up) instead of Erlang C.")
    var patience: Double?

    @Option(help: "The highest occupancy allowed, [0.5, 1], e.g. 0.85.")
    var maxOccupancy: Double?

    @Option(help: "Share of paid time off the queue, [0, 0.9]: scheduled = N / (1 - shrinkage).")
    var shrinkage: Double = 0

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        do {
            let calculation = try Self.calculate(
                volume: volume, intervalMinutes: intervalMinutes, aht: aht, serviceLevel: serviceLevel,
                agents: agents, patience: patience, maxOccupancy: maxOccupancy, shrinkage: shrinkage)
            print(json ? calculation.json : calculation.text, terminator: json ? "\n" : "")
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The command's logic without the command line.
    static func calculate(
        volume: Double, intervalMinutes: Double, aht: Double, serviceLevel: String, agents: Int?, patience: Double?,
        maxOccupancy: Double?, shrinkage: Double
    ) throws(StaffingError) -> ErlangCalculation {
        let load = try TrafficLoad(volume: volume, intervalSeconds: intervalMinutes * 60, averageHandleTimeSeconds: aht)
        let target = try ServiceTarget(parsing: serviceLevel, maximumOccupancy: maxOccupancy)
        return try ErlangCalculation(
            load: load, target: target, agents: agents, patienceSeconds: patience, shrinkage: shrinkage)
    }
}
