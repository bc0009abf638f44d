/// Erlang B: the blocking probability of N servers offered A Erlangs with no queue (M/M/N/N).
///
/// Computed by the recursion `B(0) = 1`, `B(k) = A·B(k−1) / (k + A·B(k−1))`: O(N), always within
/// [0, 1], and safe for thousands of agents (never `A^N` or `N!`, which overflow near N = 171).
public enum ErlangB {
    /// B(N, A).
    /// - Parameters:
    ///   - agents: N, 0 or more.
    ///   - load: A in Erlangs, 0 or more.
    public static func blocking(agents: Int, load: Double) -> Double {
        var b = 1.0
        guard agents > 0 else { return b }
        for k in 1...agents {
            b = next(b, agents: k, load: load)
        }
        return b
    }

    /// One step of the recursion: B(k) from B(k − 1).
    @inline(__always)
    static func next(_ previous: Double, agents k: Int, load: Double) -> Double {
        let ab = load * previous
        return ab / (Double(k) + ab)
    }

    /// The fewest servers whose blocking is at most `maximumBlocking`.
    /// - Throws: `StaffingError.serviceLevelOutOfRange` unless `maximumBlocking` is within (0, 1).
    public static func agents(load: Double, maximumBlocking: Double) throws(StaffingError) -> Int {
        guard maximumBlocking > 0, maximumBlocking < 1 else {
            throw .serviceLevelOutOfRange(1 - maximumBlocking)
        }
        guard load.isFinite, load >= 0 else { throw .volumeOutOfRange(load) }
        var b = 1.0
        var k = 0
        while b > maximumBlocking {
            k += 1
            b = next(b, agents: k, load: load)
        }
        return k
    }
}
