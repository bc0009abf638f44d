extension TrafficSimulationConfiguration {
    /// A routing profile of the simulated center: the queues its agents take contacts from, and
    /// its share of the agents.
    ///
    /// As in Amazon Connect, an agent has exactly one routing profile and is only offered contacts
    /// of the queues that profile serves; its agent events carry the profile with those queues
    /// (`CurrentAgentSnapshot.Configuration.RoutingProfile.InboundQueues`).
    public struct RoutingProfile: Sendable, Hashable {
        /// The profile's name (`RoutingProfile.Name` in agent events and CTRs).
        public var name: String
        /// The queues it serves, by name, in the order its agent events list them.
        public var queues: [String]
        /// Its share of ``TrafficSimulationConfiguration/agentCount``: relative to the other
        /// profiles' shares, which need not add up to 1. Zero or less gets no agents.
        public var share: Double

        /// Creates a routing profile.
        public init(name: String, queues: [String], share: Double) {
            self.name = name
            self.queues = queues
            self.share = share
        }
    }

    /// The profiles agents are assigned to: ``routingProfiles``, or when that is empty one profile,
    /// "Restaurants", serving every store's queue and the overflow queue.
    public var routingProfilesInForce: [RoutingProfile] {
        guard routingProfiles.isEmpty else { return routingProfiles }
        let queues = Set(stores.map(\.queue) + [overflowQueue]).sorted()
        return [RoutingProfile(name: "Restaurants", queues: queues, share: 1)]
    }

    /// How many agents each of ``routingProfilesInForce`` gets, in its order: ``agentCount``
    /// apportioned by share (``apportion(_:shares:)``). When no profile has a positive share,
    /// the profiles share the agents equally.
    public var agentsPerRoutingProfile: [Int] {
        let shares = routingProfilesInForce.map(\.share)
        let positive = shares.contains { $0 > 0 }
        return Self.apportion(max(0, agentCount), shares: positive ? shares : shares.map { _ in 1 })
    }

    /// Divides `total` whole agents by `shares` with exact counts: the largest-remainder method.
    ///
    /// Each share first gets the whole part of its quota (`total × share / sum of shares`); the
    /// agents left go one each to the largest fractional parts (the earlier share on a tie).
    /// Then every positive share still at zero gets one agent, in order of share (largest first),
    /// taken from the share furthest above its quota among those with more than one, as long as
    /// there is such a share. Shares of zero or less get nothing.
    ///
    /// - Parameters:
    ///   - total: the agents to divide; negative counts as zero.
    ///   - shares: the relative shares.
    /// - Returns: one count per share, adding up to `total` (to zero when no share is positive).
    public static func apportion(_ total: Int, shares: [Double]) -> [Int] {
        let weights = shares.map { $0 > 0 && $0.isFinite ? $0 : 0 }
        let sum = weights.reduce(0, +)
        guard total > 0, sum > 0 else { return shares.map { _ in 0 } }
        // Rounded to 1e-9, so shares that divide evenly (0.25 of 12) give whole quotas despite
        // floating point.
        let quotas = weights.map { (Double(total) * $0 / sum * 1e9).rounded() / 1e9 }
        var counts = quotas.map { Int($0.rounded(.down)) }
        let byRemainder = quotas.indices.filter { weights[$0] > 0 }.sorted {
            let (left, right) = (quotas[$0] - Double(counts[$0]), quotas[$1] - Double(counts[$1]))
            return left != right ? left > right : $0 < $1
        }
        var left = total - counts.reduce(0, +)
        var next = 0
        while left > 0, !byRemainder.isEmpty {
            counts[byRemainder[next % byRemainder.count]] += 1
            left -= 1
            next += 1
        }
        let empty = weights.indices.filter { weights[$0] > 0 && counts[$0] == 0 }.sorted {
            weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1
        }
        for share in empty {
            let donors = counts.indices.filter { counts[$0] > 1 }
            guard
                let donor = donors.max(by: {
                    let (left, right) = (Double(counts[$0]) - quotas[$0], Double(counts[$1]) - quotas[$1])
                    return left != right ? left < right : $0 > $1
                })
            else { break }
            counts[donor] -= 1
            counts[share] += 1
        }
        return counts
    }
}
