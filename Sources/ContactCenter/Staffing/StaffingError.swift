/// An input the staffing math refuses, with a message that names the input and the allowed range.
///
/// The math never answers NaN or a silent zero for a bad input: it throws one of these.
public enum StaffingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The service-level target is not within (0, 1) (a share, so 80 % is 0.8).
    case serviceLevelOutOfRange(Double)
    /// The service-level threshold X is not within (0, 3,600] seconds.
    case thresholdNotPositive(Double)
    /// Shrinkage is not within [0, 0.9].
    case shrinkageOutOfRange(Double)
    /// The maximum occupancy is not within [0.5, 1].
    case maximumOccupancyOutOfRange(Double)
    /// The average speed of answer target is not within (0, 3,600] seconds.
    case averageSpeedOfAnswerNotPositive(Double)
    /// The volume is negative or not finite.
    case volumeOutOfRange(Double)
    /// The interval is not a positive number of seconds.
    case intervalNotPositive(Double)
    /// The average handle time is not a positive number of seconds.
    case handleTimeNotPositive(Double)
    /// The callers' mean patience is not a positive number of seconds.
    case patienceNotPositive(Double)
    /// A negative number of agents.
    case agentsNegative(Int)
    /// A service level written other than `P/X` (e.g. `80/20`).
    case serviceLevelSyntax(String)
    /// An offered load, Erlangs, beyond what the search may staff (``StaffingRequirement/maximumAgents``).
    case loadBeyondSearch(Double, maximumAgents: Int)
    /// No staffing up to ``StaffingRequirement/maximumAgents`` meets the target.
    case targetUnreachable(maximumAgents: Int)
    /// Agents to schedule that are negative, not finite or beyond any plan.
    case agentsOutOfRange(Double)

    public var description: String {
        switch self {
        case .serviceLevelOutOfRange(let value):
            "service level target \(value * 100) % is outside (0 %, 100 %): give e.g. 80/20"
        case .thresholdNotPositive(let value):
            "service level threshold \(value) s is outside (0 s, 3,600 s]"
        case .shrinkageOutOfRange(let value):
            "shrinkage \(value) is outside [0, 0.9]: 0.3 means 30 % of paid time off the queue"
        case .maximumOccupancyOutOfRange(let value):
            "maximum occupancy \(value) is outside [0.5, 1]: 0.85 means agents busy at most 85 % of the time"
        case .averageSpeedOfAnswerNotPositive(let value):
            "average speed of answer target \(value) s is outside (0 s, 3,600 s]"
        case .volumeOutOfRange(let value):
            "volume \(value) must be a finite number of contacts, 0 or more"
        case .intervalNotPositive(let value):
            "interval \(value) s must be more than 0 s"
        case .handleTimeNotPositive(let value):
            "average handle time \(value) s must be more than 0 s"
        case .patienceNotPositive(let value):
            "patience \(value) s must be more than 0 s (leave it out for Erlang C)"
        case .agentsNegative(let value):
            "agents \(value) must be 0 or more"
        case .serviceLevelSyntax(let text):
            "service level \"\(text)\" is not P/X: give the percentage and the seconds, e.g. 80/20"
        case .loadBeyondSearch(let load, let maximum):
            "offered load \(load) Erlangs is beyond what \(maximum) agents on one queue can staff"
        case .targetUnreachable(let maximum):
            "no staffing of up to \(maximum) agents on one queue meets the target: ask for a lower service level or a longer threshold"
        case .agentsOutOfRange(let value):
            "agents \(value) must be a finite number, 0 or more, within a plan's range"
        }
    }
}
