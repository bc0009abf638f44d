import ContactCenter
import Foundation
import Testing

@testable import Services

/// The restaurant center's routing profiles over the repository's flows/, as `switchboard dev`,
/// `simulate` and `staffing seed` build them.
@Suite("Restaurant routing profiles over flows/")
struct RestaurantRoutingProfilesTests {
    static let flows = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("flows").path

    @Test("cuisine profiles of two or three queues each, and one multi-skill profile that alone serves overflow")
    func profilesOfTheShippedStores() throws {
        let stores = try FlowStore.load(directory: Self.flows).flows.simulatedStores
        var configuration = TrafficSimulationConfiguration(
            stores: stores, start: UTCTimestamp(millisecondsSince1970: 0))
        let overflow = configuration.overflowQueue
        let profiles = TrafficSimulationConfiguration.restaurantProfiles(stores: stores, overflowQueue: overflow)
        configuration.routingProfiles = profiles
        #expect(stores.count == 23)
        #expect(
            profiles.map(\.name) == ["Washoku", "Noodles", "Izakaya & Bar", "Western", "Café & Diner", "Multi-skill"])
        let multiSkill = try #require(profiles.last)
        let storeQueues = Set(stores.map(\.queue))
        #expect(storeQueues.count == 13)
        #expect(Set(multiSkill.queues) == storeQueues.union([overflow]))
        #expect(profiles.filter { $0.queues.contains(overflow) }.map(\.name) == ["Multi-skill"])
        let cuisine = profiles.dropLast()
        #expect(cuisine.allSatisfy { (2...3).contains($0.queues.count) })
        // Each store queue is in exactly one cuisine profile.
        let grouped = cuisine.flatMap(\.queues)
        #expect(grouped.count == storeQueues.count && Set(grouped) == storeQueues)
        #expect(cuisine[2].queues == ["izakaya", "bar", "yakiniku"])
        // Three quarters by stores served (5, 5, 8, 3 and 2 of 23), a quarter multi-skill.
        let shares = profiles.map(\.share)
        let expected = [5.0, 5, 8, 3, 2].map { 0.75 * $0 / 23 } + [0.25]
        for (share, want) in zip(shares, expected) { #expect(abs(share - want) < 1e-12) }
        // The default 12 agents: quotas 1.96, 1.96, 3.13, 1.17, 0.78, 3; floors 1, 1, 3, 1, 0, 3
        // and the 3 left to the remainders .96, .96, .78.
        configuration.agentCount = 12
        #expect(configuration.agentsPerRoutingProfile == [2, 2, 3, 1, 1, 3])
        // The staffing seeder test's 4 agents: too few for six profiles; multi-skill has one.
        configuration.agentCount = 4
        #expect(configuration.agentsPerRoutingProfile == [1, 1, 1, 0, 0, 1])
    }
}
