/// SplitMix64, a small, fast, seedable pseudo-random generator.
///
/// The traffic simulation takes its randomness from one of these so that the same seed gives the
/// same traffic, byte for byte, on every platform (the system generator cannot be seeded); the
/// HTTP server spreads its timeouts with one per connection (no system call per timer).
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var state: UInt64

    /// Creates a generator from a seed; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `[0, 1)` with 53 random bits.
    @inlinable
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
