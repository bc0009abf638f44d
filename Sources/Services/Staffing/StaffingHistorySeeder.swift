import ContactCenter
import Foundation
import Logging
import OperatingHours
import Primitives
import ServiceLifecycle

/// Where seeded history goes (implemented in Roles over the ingest writer).
public protocol SeedHistoryStore: Sendable {
    /// Whether the database holds no contact record yet.
    func hasNoContacts() async throws -> Bool
    /// Writes `records` (contact trace records, JSON) in one transaction, as the ingest would.
    func write(contactRecords records: [SimulatedMessage]) async throws
}

/// Simulated history for the staffing forecast on an empty database: `switchboard dev` seeds it
/// so the console's staffing panel has a plan within a minute of the first start, and
/// `switchboard staffing seed --days N` writes a longer stretch for trying the plan and the
/// backtest.
///
/// Runs the traffic simulation (the same as the live simulator's, with the restaurant routing
/// profiles, asking the flows in process instead of over HTTP) over the last 8 weeks and over
/// last year's holidays and pre-holidays (or over the last N days), and writes its contact
/// records to `store` (the ingest writer).
/// Writes nothing when the database has a contact record. As a service (the dev role) failures
/// are logged, never thrown.
public struct StaffingHistorySeeder: Service {
    var store: any SeedHistoryStore
    var flowsDirectory: String
    var agents: Int
    var seed: UInt64
    /// The share of store-days with a shock (``TrafficShocks``, decided by ``seed``).
    var shocks: Double
    var schema: StartupGate
    var logger: Logger

    /// A seeder writing to `store`, simulating the stores of `flowsDirectory` with `agents`
    /// agents from `seed`, `shocks` of the store-days shocked; as a service, it starts once
    /// `schema` opens.
    public init(
        store: any SeedHistoryStore, flowsDirectory: String, agents: Int, seed: UInt64, shocks: Double = 0,
        schema: StartupGate = .opened(), logger: Logger
    ) {
        self.store = store
        self.flowsDirectory = flowsDirectory
        self.agents = agents
        self.seed = seed
        self.shocks = shocks
        self.schema = schema
        self.logger = logger
    }

    public func run() async throws {
        await schema.wait()
        do {
            // Ctrl-C during the seeding stops it at once: what was written stays, a later start
            // finds contacts and seeds nothing more.
            try await cancelWhenGracefulShutdown { _ = try await seed(now: Date()) }
        } catch is CancellationError {
        } catch {
            logger.warning("staffing history not seeded: \(error)")
        }
    }

    /// In-process answers to "is the store open" and "how busy is its day", as the hook's flows say.
    struct FlowEnvironment: TrafficEnvironment {
        var flows: FlowSet

        func isOpen(storeId: String, at instant: UTCTimestamp) async -> Bool {
            flows.store(id: storeId)?.schedule.decision(at: instant.date).isOpen ?? true
        }

        func dayMultiplier(storeId: String, at instant: UTCTimestamp) -> Double {
            flows.trafficMultiplier(storeId: storeId, at: instant)
        }
    }

    /// The simulation of seeded history (and of the oracle's replicas of it): the restaurant
    /// routing profiles, no CTR updates or duplicates, shocks decided by `seed` whatever the
    /// traffic's seed.
    /// - Parameters:
    ///   - seed: The simulator's seed, which decides the shocks.
    ///   - traffic: The seed of this run's traffic.
    ///   - start: Milliseconds since 1970; agents log in then.
    ///   - arrivalsEnd: Milliseconds since 1970; no arrival at or after it.
    static func configuration(
        stores: [TrafficSimulationConfiguration.Store], agents: Int, seed: UInt64, traffic: UInt64, shocks: Double,
        start: Int64, arrivalsEnd: Int64
    ) -> TrafficSimulationConfiguration {
        var configuration = TrafficSimulationConfiguration(
            stores: stores, agentCount: agents, seed: traffic, start: UTCTimestamp(millisecondsSince1970: start),
            arrivalsEnd: UTCTimestamp(millisecondsSince1970: arrivalsEnd))
        configuration.routingProfiles = TrafficSimulationConfiguration.restaurantProfiles(
            stores: stores, overflowQueue: configuration.overflowQueue)
        configuration.updateShare = 0
        configuration.duplicateShare = 0
        if shocks > 0 { configuration.shocks = TrafficShocks(share: shocks, seed: seed) }
        return configuration
    }

    /// Seeds the history ending at `now`: the last `days` days when given, else the last 8 weeks
    /// and each holiday and pre-holiday between 400 and 56 days ago.
    /// - Returns: the contact records written; `nil` when the store already had a contact record.
    /// - Throws: a flow file that does not load; the store's errors; `CancellationError`.
    public func seed(now: Date, days: Int? = nil) async throws -> Int? {
        guard try await store.hasNoContacts() else { return nil }
        let flows = try FlowStore.load(directory: flowsDirectory).flows
        let stores = flows.simulatedStores
        guard let reference = flows.stores.first, !stores.isEmpty else { return 0 }
        let day: Int64 = 86_400_000
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        // Japan's midnight of today, then the windows: the last `days` days in one, or the last
        // 8 weeks and each holiday and pre-holiday between 400 and 56 days ago (as the first
        // store's calendar has them).
        let midnight = (nowMs + 9 * 3_600_000) / day * day - 9 * 3_600_000
        var windows: [(Int64, Int64)] = [(midnight - Int64(days ?? 56) * day, nowMs - 15 * 60_000)]
        for back in stride(from: 400, to: 56, by: -1) where days == nil {
            let start = midnight - Int64(back) * day
            let noon = UTCTimestamp(millisecondsSince1970: start + 12 * 3_600_000)
            switch reference.schedule.decision(at: noon.date).dayType {
            case .holiday, .preHoliday: windows.append((start, start + day))
            default: break
            }
        }
        let started = Date()
        let environment = FlowEnvironment(flows: flows)
        var written = 0
        var pending: [SimulatedMessage] = []
        // Large transactions: the rollups are kept per transaction, so fewer is faster.
        func flush(below limit: Int) async throws {
            guard pending.count >= limit, !pending.isEmpty else { return }
            try await store.write(contactRecords: pending)
            written += pending.count
            pending.removeAll(keepingCapacity: true)
        }
        for (index, (start, end)) in windows.enumerated() {
            let configuration = Self.configuration(
                stores: stores, agents: agents, seed: seed, traffic: seed &+ UInt64(index), shocks: shocks,
                start: start, arrivalsEnd: end)
            var simulation = TrafficSimulation(configuration: configuration)
            var cursor = start
            while cursor < end + 2 * 3_600_000 {
                try Task.checkCancellation()
                cursor += day
                let messages = await simulation.advance(
                    to: UTCTimestamp(millisecondsSince1970: min(cursor, end + 2 * 3_600_000)),
                    environment: environment)
                pending.append(contentsOf: messages.lazy.filter { $0.kind == .contactRecord })
                try await flush(below: 5_000)
            }
        }
        try await flush(below: 1)
        logger.info(
            "seeded staffing history: \(written) simulated contact records over \(windows.count) periods in \(Int(Date().timeIntervalSince(started))) s"
        )
        return written
    }
}
