import ContactCenter
import Foundation
import Testing

/// Stores whose id starts with "closed" are closed; every other store is open.
private struct FixedHours: TrafficEnvironment {
    func isOpen(storeId: String, at instant: UTCTimestamp) async -> Bool { !storeId.hasPrefix("closed") }
}

@Suite("Traffic simulation: routing profiles")
struct TrafficSimulationRoutingProfileTests {
    typealias Profile = TrafficSimulationConfiguration.RoutingProfile
    static let start = TrafficSimulationTests.start

    // MARK: Apportionment

    @Test("agents are apportioned by share with exact counts, worked out by hand")
    func apportionment() {
        let apportion = TrafficSimulationConfiguration.apportion
        // Quotas 5, 3, 2: no remainder.
        #expect(apportion(10, [0.5, 0.3, 0.2]) == [5, 3, 2])
        // Quotas 3.5, 2.1, 1.4: floors 3, 2, 1; the one left goes to the largest remainder (.5).
        #expect(apportion(7, [0.5, 0.3, 0.2]) == [4, 2, 1])
        // Quotas 6.5, 3.9, 2.6: floors 6, 3, 2; the two left go to .9, then .6.
        #expect(apportion(13, [0.5, 0.3, 0.2]) == [6, 4, 3])
        // Shares need not add up to 1; a tie of remainders goes to the earlier share.
        #expect(apportion(10, [1, 1, 1]) == [4, 3, 3])
        #expect(apportion(5, [2, 0, 2]) == [3, 0, 2])
        // Quotas 3.4, .2, .2, .2 give 4, 0, 0, 0; each positive share then gets one from the first.
        #expect(apportion(4, [0.85, 0.05, 0.05, 0.05]) == [1, 1, 1, 1])
        // Too few agents for every share: the larger shares get theirs first (ties: earlier).
        #expect(apportion(3, [0.85, 0.05, 0.05, 0.05]) == [1, 1, 1, 0])
        // Quotas 9.1, .45, .45: floors 9, 0, 0; one left goes to the second; the third takes one
        // from the first, the furthest above its quota.
        #expect(apportion(10, [0.91, 0.045, 0.045]) == [8, 1, 1])
        #expect(apportion(0, [0.5, 0.5]) == [0, 0])
        #expect(apportion(-3, [0.5, 0.5]) == [0, 0])
        #expect(apportion(4, [0, -1]) == [0, 0])
        #expect(apportion(4, []) == [])
    }

    @Test("apportioned counts add up to the agents for any positive shares")
    func apportionmentAddsUp() {
        let shares: [[Double]] = [[0.1, 0.2, 0.7], [1, 2, 3, 4, 5], [0.25, 0.25, 0.25, 0.25], [0.01, 0.99], [3]]
        for share in shares {
            for total in 0...40 {
                let counts = TrafficSimulationConfiguration.apportion(total, shares: share)
                #expect(counts.reduce(0, +) == total, "\(total) over \(share)")
                if total >= share.count { #expect(counts.allSatisfy { $0 >= 1 }, "\(total) over \(share)") }
            }
        }
    }

    // MARK: The restaurant builder

    @Test("the restaurant builder groups known cuisines, chunks unknown queues, and keeps overflow multi-skill")
    func restaurantBuilder() throws {
        let kinds = ["italian", "sushi", "curry", "pizza", "sushi", "tapas", "kebab", "Overflow"]
        let stores = kinds.enumerated().map { index, kind in
            TrafficSimulationConfiguration.Store(id: "store-\(index)", dialedNumber: "+8130000000\(index)", queue: kind)
        }
        let profiles = TrafficSimulationConfiguration.restaurantProfiles(stores: stores, overflowQueue: "Overflow")
        #expect(profiles.map(\.name) == ["Washoku", "Western", "Curry & Kebab", "Pizza & Tapas", "Multi-skill"])
        #expect(
            profiles.map(\.queues).dropLast() == [["sushi"], ["italian"], ["curry", "kebab"], ["pizza", "tapas"]])
        #expect(profiles.last?.queues == ["curry", "italian", "kebab", "pizza", "sushi", "tapas", "Overflow"])
        // A store whose queue is the overflow queue does not count: 7 stores, 2 of them sushi.
        let shares = profiles.map(\.share)
        let expected = [0.75 * 2 / 7, 0.75 / 7, 0.75 * 2 / 7, 0.75 * 2 / 7, 0.25]
        for (share, want) in zip(shares, expected) { #expect(abs(share - want) < 1e-12) }
        #expect(profiles.dropLast().allSatisfy { !$0.queues.contains("Overflow") })
    }

    @Test("a known group with more than three queues is split; seven unknown queues make chunks of 3, 2, 2")
    func restaurantBuilderChunks() {
        let kinds = ["izakaya", "bar", "yakiniku", "yakitori", "a", "b", "c", "d", "e", "f", "g"]
        let stores = kinds.map { TrafficSimulationConfiguration.Store(id: $0, dialedNumber: "+81", queue: $0) }
        let profiles = TrafficSimulationConfiguration.restaurantProfiles(stores: stores, overflowQueue: "Overflow")
        #expect(
            profiles.map(\.name) == [
                "Izakaya & Bar", "Izakaya & Bar 2", "A, B & C", "D & E", "F & G", "Multi-skill",
            ])
        #expect(profiles[0].queues == ["izakaya", "bar"])
        #expect(profiles[1].queues == ["yakiniku", "yakitori"])
    }

    // MARK: Dispatch

    static let stores = [
        TrafficSimulationConfiguration.Store(id: "shibuya", dialedNumber: "+81355500101", queue: "italian"),
        TrafficSimulationConfiguration.Store(id: "ebisu", dialedNumber: "+81355500102", queue: "french"),
        TrafficSimulationConfiguration.Store(id: "ueno", dialedNumber: "+81355500104", queue: "izakaya"),
        TrafficSimulationConfiguration.Store(id: "ginza", dialedNumber: "+81355500105", queue: "bar"),
        TrafficSimulationConfiguration.Store(id: "closed-tsukiji", dialedNumber: "+81355500106", queue: "sushi"),
    ]

    /// Four hours of arrivals at 30 calls per store and hour, run until every contact finishes.
    static func run(
        stores: [TrafficSimulationConfiguration.Store] = stores, agents: Int, profiles: [Profile], seed: UInt64 = 42
    ) async -> (messages: [SimulatedMessage], counters: SimulationCounters) {
        var configuration = TrafficSimulationConfiguration(
            stores: stores, agentCount: agents, seed: seed, start: start,
            arrivalsEnd: start.adding(seconds: 4 * 3_600), callsPerHourPerStore: 30,
            hourlyShape: Array(repeating: 1, count: 24))
        configuration.shiftSeconds = 6 * 3_600
        configuration.routingProfiles = profiles
        var simulation = TrafficSimulation(configuration: configuration)
        var messages: [SimulatedMessage] = []
        for hour in 1...8 {
            messages += await simulation.advance(
                to: start.adding(seconds: Int64(hour) * 3_600), environment: FixedHours())
        }
        return (messages, simulation.counters)
    }

    /// Each agent's routing profile, from its agent events; every event of an agent names the same.
    static func profilesByAgent(_ messages: [SimulatedMessage]) throws -> [String: AgentRoutingProfile] {
        var profiles: [String: AgentRoutingProfile] = [:]
        for message in messages where message.kind == .agentEvent {
            let event = try AgentEvent(jsonData: message.value)
            for snapshot in [event.currentSnapshot, event.previousSnapshot] {
                let profile = try #require(snapshot?.configuration?.routingProfile)
                if let known = profiles[event.agentArn] {
                    #expect(known == profile, "\(event.agentArn) changed profile")
                } else {
                    profiles[event.agentArn] = profile
                }
            }
        }
        return profiles
    }

    /// The last copy of each contact's CTR.
    static func records(_ messages: [SimulatedMessage]) throws -> [ContactTraceRecord] {
        var latest: [String: ContactTraceRecord] = [:]
        for message in messages where message.kind == .contactRecord {
            let record = try ContactTraceRecord(jsonData: message.value)
            if let kept = latest[record.contactId], kept.lastUpdateTimestamp > record.lastUpdateTimestamp { continue }
            latest[record.contactId] = record
        }
        return latest.values.sorted { $0.contactId < $1.contactId }
    }

    @Test("every answered contact's agent serves its queue; overflow goes only to multi-skill agents")
    func answeredByProfile() async throws {
        let profiles = TrafficSimulationConfiguration.restaurantProfiles(stores: Self.stores, overflowQueue: "Overflow")
        // Washoku 0.75/5, Izakaya & Bar 0.75·2/5, Western 0.75·2/5, Multi-skill 0.25 of 8 agents:
        // quotas 1.2, 2.4, 2.4, 2: floors 1, 2, 2, 2, and the one left to the first .4.
        #expect(profiles.map(\.name) == ["Washoku", "Izakaya & Bar", "Western", "Multi-skill"])
        let (messages, counters) = await Self.run(agents: 8, profiles: profiles)
        let byAgent = try Self.profilesByAgent(messages)
        #expect(byAgent.count == 8)
        let agentsPerProfile = Dictionary(grouping: byAgent.values, by: { $0.name ?? "" }).mapValues(\.count)
        #expect(agentsPerProfile == ["Washoku": 1, "Izakaya & Bar": 3, "Western": 2, "Multi-skill": 2])
        for profile in byAgent.values {
            let configured = try #require(profiles.first { $0.name == profile.name })
            #expect(profile.inboundQueues.map(\.name) == configured.queues)
            #expect(profile.arn?.contains("/routing-profile/") == true)
        }
        #expect(Set(byAgent.values.map(\.arn)).count == 4, "one ARN per profile")

        let records = try Self.records(messages)
        var answeredPerQueue: [String: Int] = [:]
        for record in records {
            guard let agent = record.agent, let queue = record.queue?.name else { continue }
            let profile = try #require(byAgent[agent.arn ?? ""], "\(record.contactId)'s agent")
            #expect(profile.inboundQueues.contains { $0.name == queue }, "\(queue) answered by \(profile.name ?? "")")
            #expect(agent.routingProfile?.arn == profile.arn && agent.routingProfile?.name == profile.name)
            answeredPerQueue[queue, default: 0] += 1
            if queue == "Overflow" { #expect(profile.name == "Multi-skill") }
        }
        #expect(counters.queueTransfers + counters.transfers > 0)
        #expect(answeredPerQueue["Overflow", default: 0] > 0)
        #expect(answeredPerQueue.keys.sorted() == ["Overflow", "bar", "french", "italian", "izakaya"])
        // Multi-skill agents take store queues too.
        let multiSkill = Set(byAgent.filter { $0.value.name == "Multi-skill" }.keys)
        #expect(records.contains { multiSkill.contains($0.agent?.arn ?? "") && $0.queue?.name != "Overflow" })
    }

    @Test("an idle agent is never offered a contact of a queue outside its profile while callers wait")
    func idleAgentOutsideItsProfile() async throws {
        // The sushi store is closed: nothing ever queues for the Sushi agent, while one French
        // agent cannot keep up with 30 calls an hour and its callers hang up or are moved.
        let stores = [Self.stores[1], Self.stores[4]]
        let profiles = [
            Profile(name: "Sushi", queues: ["sushi"], share: 1),
            Profile(name: "French", queues: ["french", "Overflow"], share: 1),
        ]
        let (messages, counters) = await Self.run(stores: stores, agents: 2, profiles: profiles)
        let byAgent = try Self.profilesByAgent(messages)
        let sushi = try #require(byAgent.first { $0.value.name == "Sushi" }?.key)
        #expect(counters.abandoned > 10)
        #expect(counters.answered > 10)
        let records = try Self.records(messages)
        #expect(records.contains { $0.agent != nil })
        #expect(records.allSatisfy { $0.agent?.arn != sushi })
        // When the Sushi agent was available (routable), from its agent events.
        var available: [(from: UTCTimestamp, to: UTCTimestamp)] = []
        var since: UTCTimestamp?
        for message in messages where message.kind == .agentEvent {
            let event = try AgentEvent(jsonData: message.value)
            guard event.agentArn == sushi else { continue }
            #expect(event.currentSnapshot?.contacts.isEmpty == true, "the Sushi agent had a contact")
            let routable = event.currentSnapshot?.status?.type == .routable
            if routable, since == nil {
                since = event.eventTimestamp
            } else if !routable, let from = since {
                available.append((from, event.eventTimestamp))
                since = nil
            }
        }
        #expect(since == nil, "the Sushi agent logs out")
        // French callers waited while it was available.
        let waits = records.compactMap { record -> (from: UTCTimestamp, to: UTCTimestamp)? in
            guard record.queue?.name == "french", let from = record.queue?.enqueueTimestamp,
                let to = record.queue?.dequeueTimestamp, from < to
            else { return nil }
            return (from, to)
        }
        let overlapping = waits.filter { wait in available.contains { $0.from < wait.to && wait.from < $0.to } }
        #expect(overlapping.count > 10)
    }

    @Test("with routing profiles, the same seed still gives the same messages")
    func sameSeedSameMessages() async throws {
        let profiles = TrafficSimulationConfiguration.restaurantProfiles(stores: Self.stores, overflowQueue: "Overflow")
        let first = await Self.run(agents: 6, profiles: profiles, seed: 7)
        let second = await Self.run(agents: 6, profiles: profiles, seed: 7)
        let other = await Self.run(agents: 6, profiles: profiles, seed: 8)
        #expect(first.messages == second.messages)
        #expect(first.counters == second.counters)
        #expect(first.messages != other.messages)
    }

    @Test("without routing profiles, every agent has one profile serving every queue and the overflow queue")
    func implicitProfile() async throws {
        let (messages, _) = await Self.run(agents: 3, profiles: [])
        let byAgent = try Self.profilesByAgent(messages)
        #expect(byAgent.count == 3)
        #expect(Set(byAgent.values).count == 1)
        let profile = try #require(byAgent.values.first)
        #expect(profile.name == "Restaurants")
        #expect(profile.inboundQueues.map(\.name) == ["Overflow", "bar", "french", "italian", "izakaya", "sushi"])
    }
}
