import Foundation

/// SplitMix64, a small, fast, seedable pseudo-random generator.
///
/// The traffic simulation takes its randomness from one of these so that the same seed gives the
/// same traffic, byte for byte, on every platform (the system generator cannot be seeded).
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator from a seed; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `[0, 1)` with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// An exponentially distributed value with the given mean.
    public mutating func exponential(mean: Double) -> Double {
        -mean * log1p(-unit())
    }

    /// Whether an event of probability `probability` happens.
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A lowercase UUID-formatted identifier (version 4 layout) made of random bits, each half
    /// XORed with `salt` (which leaves the generator's sequence as without one).
    public mutating func uuid(salt: (high: UInt64, low: UInt64) = (0, 0)) -> String {
        let high = next() ^ salt.high
        let low = next() ^ salt.low
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        let characters = Array(hex)
        var text = ""
        text.reserveCapacity(36)
        for (index, character) in characters.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
            if index == 12 {
                text.append("4")
            } else if index == 16 {
                text.append(["8", "9", "a", "b"][Int(character.hexDigitValue ?? 0) & 3])
            } else {
                text.append(character)
            }
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
