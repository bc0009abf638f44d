extension TrafficSimulationConfiguration {
    /// Cuisine groups of store queues, by queue name, in the order their profiles come.
    private static let cuisineGroups: [(name: String, queues: [String])] = [
        ("Washoku", ["kaiseki", "sushi", "tempura", "tonkatsu", "unagi"]),
        ("Noodles", ["ramen", "soba", "udon"]),
        ("Izakaya & Bar", ["izakaya", "bar", "yakiniku", "yakitori"]),
        ("Western", ["french", "italian", "spanish"]),
        ("Café & Diner", ["cafe", "diner", "bakery"]),
    ]

    /// The name of the profile that serves every queue in ``restaurantProfiles(stores:overflowQueue:)``.
    public static let multiSkillProfileName = "Multi-skill"

    /// The routing profiles of a restaurant contact center: agents specialised by cuisine, and a
    /// quarter of them multi-skilled.
    ///
    /// - A profile per cuisine group serves two or three related store queues (Washoku: kaiseki,
    ///   sushi, tempura; Noodles: ramen, soba, udon; Izakaya & Bar: izakaya, bar, yakiniku;
    ///   Western: french, italian; Café & Diner: cafe, diner). A group with more than three of
    ///   the stores' queues is split in chunks of two or three. Queues of no known group are
    ///   sorted and grouped the same way, each chunk named after its queues ("Curry & Pizza").
    ///   Together these profiles have three quarters of the agents, each in proportion to the
    ///   number of stores its queues serve.
    /// - "Multi-skill" serves every store queue and `overflowQueue`, with a quarter of the agents.
    ///   No other profile serves `overflowQueue`: queue and agent transfers wait for one of a few.
    ///
    /// - Parameters:
    ///   - stores: the simulated stores; their queues are grouped, their count weighs the shares.
    ///   - overflowQueue: the queue of queue and agent transfers.
    /// - Returns: the cuisine profiles in a fixed order (known groups first), then "Multi-skill".
    public static func restaurantProfiles(stores: [Store], overflowQueue: String) -> [RoutingProfile] {
        var storesPerQueue: [String: Int] = [:]
        for store in stores where store.queue != overflowQueue {
            storesPerQueue[store.queue, default: 0] += 1
        }
        var groups: [(name: String, queues: [String])] = []
        var known = Set<String>()
        for group in cuisineGroups {
            let present = group.queues.filter { storesPerQueue[$0] != nil }
            known.formUnion(present)
            let chunks = Self.chunks(present)
            for (number, chunk) in chunks.enumerated() {
                groups.append((number == 0 ? group.name : "\(group.name) \(number + 1)", chunk))
            }
        }
        let unknown = storesPerQueue.keys.filter { !known.contains($0) }.sorted()
        for chunk in Self.chunks(unknown) {
            groups.append((Self.humanName(of: chunk), chunk))
        }
        let storeCount = Double(storesPerQueue.values.reduce(0, +))
        var profiles = groups.map { group in
            let served = Double(group.queues.reduce(0) { $0 + (storesPerQueue[$1] ?? 0) })
            return RoutingProfile(name: group.name, queues: group.queues, share: 0.75 * served / storeCount)
        }
        // A queue named like a group ("washoku") must not give two profiles one name, and so one ARN.
        var taken: Set = [multiSkillProfileName]
        for index in profiles.indices {
            var name = profiles[index].name
            var suffix = 2
            while !taken.insert(name).inserted {
                name = "\(profiles[index].name) (\(suffix))"
                suffix += 1
            }
            profiles[index].name = name
        }
        profiles.append(
            RoutingProfile(
                name: multiSkillProfileName, queues: storesPerQueue.keys.sorted() + [overflowQueue], share: 0.25))
        return profiles
    }

    /// `queues` in consecutive chunks of two or three (one when there is only one), as even as
    /// they can be.
    private static func chunks(_ queues: [String]) -> [[String]] {
        guard !queues.isEmpty else { return [] }
        let count = (queues.count + 2) / 3
        let (size, larger) = (queues.count / count, queues.count % count)
        var result: [[String]] = []
        var start = 0
        for chunk in 0..<count {
            let end = start + size + (chunk < larger ? 1 : 0)
            result.append(Array(queues[start..<end]))
            start = end
        }
        return result
    }

    /// "Curry", "Curry & Pizza", "Curry, Pizza & Tapas".
    private static func humanName(of queues: [String]) -> String {
        let words = queues.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " & " + last
    }
}
