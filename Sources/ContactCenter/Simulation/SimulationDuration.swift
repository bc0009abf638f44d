import Primitives

/// A distribution of durations in whole seconds, drawn from a ``SplitMix64``.
public enum SimulationDuration: Sendable, Hashable {
    /// Always the same number of seconds.
    case fixed(Int)
    /// Uniform between the bounds, both included.
    case uniform(ClosedRange<Int>)
    /// Exponential with the given mean, clamped to `minimum...maximum`.
    case exponential(mean: Double, minimum: Int, maximum: Int)

    /// Draws one duration in seconds.
    public func draw(_ random: inout SplitMix64) -> Int {
        switch self {
        case .fixed(let seconds):
            return seconds
        case .uniform(let range):
            let width = UInt64(range.upperBound - range.lowerBound + 1)
            return range.lowerBound + Int(random.next() % width)
        case .exponential(let mean, let minimum, let maximum):
            let value = Int(random.exponential(mean: mean).rounded())
            return min(maximum, max(minimum, value))
        }
    }
}
