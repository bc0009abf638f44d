import Foundation
import Primitives

/// The simulation's draws from ``SplitMix64``.
extension SplitMix64 {
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
