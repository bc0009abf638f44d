import Foundation
import Primitives

/// A time zone's UTC offsets as an immutable table of transitions, so that the hot path never
/// calls into Foundation.
///
/// The table is built once (about 10 ms per zone) by sampling Foundation's `TimeZone` every 12
/// hours over the covered years and bisecting each change to the second. Lookups are a binary
/// search over the transitions (none at all for zones such as Asia/Tokyo since 1951). Outside
/// the covered years, lookups fall back to Foundation.
public struct TimeZoneOffsets: Sendable {
    /// The IANA identifier, e.g. `Asia/Tokyo`.
    public let identifier: String
    /// The years the table covers.
    public let years: ClosedRange<Int>
    private let zone: TimeZone
    private let firstSecond: Int64
    private let lastSecond: Int64
    /// UTC seconds at which the offset changes; `offsets[i + 1]` applies from `transitions[i]`.
    private let transitions: [Int64]
    private let offsets: [Int32]

    /// Builds the table of an IANA zone, or returns `nil` for an unknown identifier.
    public init?(identifier: String, years: ClosedRange<Int> = 1948...2150) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.years = years
        self.zone = zone
        let first = Int64(CivilDate.dayNumber(year: years.lowerBound, month: 1, day: 1) - 1) * 86_400
        let last = Int64(CivilDate.dayNumber(year: years.upperBound, month: 12, day: 31) + 2) * 86_400
        self.firstSecond = first
        self.lastSecond = last
        func offset(_ second: Int64) -> Int32 {
            Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second))))
        }
        var transitions: [Int64] = []
        var offsets: [Int32] = [offset(first)]
        var previous = first
        var previousOffset = offsets[0]
        let step: Int64 = 12 * 3600
        var probe = first + step
        while probe <= last {
            let probeOffset = offset(probe)
            if probeOffset != previousOffset {
                var low = previous
                var high = probe
                while high - low > 1 {
                    let mid = low + (high - low) / 2
                    if offset(mid) == previousOffset { low = mid } else { high = mid }
                }
                transitions.append(high)
                offsets.append(probeOffset)
                previousOffset = probeOffset
            }
            previous = probe
            probe += step
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// The number of offset changes within the covered years.
    public var transitionCount: Int { transitions.count }

    /// The offset from UTC in seconds at a UTC instant (seconds since 1970).
    @inline(__always)
    public func offset(atUTC second: Int64) -> Int {
        if transitions.isEmpty, second >= firstSecond, second <= lastSecond { return Int(offsets[0]) }
        guard second >= firstSecond, second <= lastSecond else {
            return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second)))
        }
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= second { low = mid + 1 } else { high = mid }
        }
        return Int(offsets[low])
    }

    /// The UTC instant of a local wall-clock time (seconds since 1970 as if local were UTC).
    ///
    /// A time repeated by a backward transition maps to its first occurrence; a time skipped by a
    /// forward transition maps to the instant as many seconds after the transition as it lies
    /// after the gap's start (02:30 on a spring-forward night becomes 03:30 daylight time).
    public func utcSecond(forLocal local: Int64) -> Int64 {
        let firstGuess = Int64(offset(atUTC: local - Int64(offset(atUTC: local))))
        let candidate = local - firstGuess
        let actual = Int64(offset(atUTC: candidate))
        return actual == firstGuess ? candidate : local - actual
    }
}
