import ContactCenter
import Foundation
import Logging
import OperatingHours
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

@testable import Roles
@testable import Services

/// The oracle counts what the history counts: the simulator's own record of the contacts it
/// offers (``SimulatedOffer``), filed by business date and slot, equals `staffing_history.offered`
/// computed in SQL from the same simulation's contact records, queue by queue and slot by slot.
/// Two definitions of "offered" (the simulator's, from the fate of each contact; SQL's, from the
/// CTRs' chains) and of the business day (flows' schedule; `store_business_day`), one answer.
@Suite("Staffing oracle: the simulator's offers equal staffing_history", .enabled(if: TestDatabase.enabled), .watched)
struct StaffingOracleAgreementTests {
    static let logger = Logger(label: "test.staffing-oracle")

    @Test("two seeded days of flows/, shocks on half the store-days: equal per queue, date and slot")
    func offersEqualHistory() async throws {
        let flows = try FlowStore.load(directory: Repository.flowsDirectory).flows
        let now = TestClock.now
        let (agents, seed, shocks) = (8, UInt64(11), 0.5)
        try await TestDatabase.withFreshDatabase("staffing_oracle") { client, _ in
            try await TestDatabase.migrate(client)
            try await AnalystCalendar.sync(client: client, flows: flows, logger: Self.logger, now: now)
            let seeder = StaffingHistorySeeder(
                store: IngestSeedHistoryStore(client: client, logger: Self.logger),
                flowsDirectory: Repository.flowsDirectory, agents: agents, seed: seed, shocks: shocks,
                logger: Self.logger)
            let written = try #require(try await seeder.seed(now: now, days: 2))
            #expect(written > 1_000)
            let store = StaffingStore(client: client, logger: Self.logger)
            // Through the date of `now`, whatever the database's own clock says: the seed ends there.
            #expect(try await store.refreshHistory(through: TestClock.date()) > 0)
            var history: [String: Double] = [:]
            let rows = try await client.query(
                "SELECT queue, business_date::text, slot::int, sum(offered)::float8 FROM staffing_history GROUP BY 1, 2, 3",
                logger: Self.logger)
            for try await (queue, date, slot, offered) in rows.decode((String, String, Int, Double).self) {
                history["\(queue) \(date) \(slot)"] = offered
            }

            // The seeder's one window for `days: 2`, replayed with offers recorded.
            let day: Int64 = 86_400_000
            let nowMs = Int64(now.timeIntervalSince1970 * 1_000)
            let midnight = (nowMs + 9 * 3_600_000) / day * day - 9 * 3_600_000
            let (start, end) = (midnight - 2 * day, nowMs - 15 * 60_000)
            let configuration = StaffingHistorySeeder.configuration(
                stores: flows.simulatedStores, agents: agents, seed: seed, traffic: seed, shocks: shocks,
                start: start, arrivalsEnd: end)
            let dates = CivilDate(dayNumber: Int(start / day) - 1)...CivilDate(dayNumber: Int(end / day) + 1)
            var counts = OfferedHistory()
            try await StaffingOracleBuilder.count(
                configuration, through: end + 2 * 3_600_000, flows: flows,
                filing: BusinessDayFiling(flows: flows, dates: dates), dates: dates, into: &counts)
            var simulated: [String: Double] = [:]
            for number in dates.lowerBound.dayNumber...dates.upperBound.dayNumber {
                let date = CivilDate(dayNumber: number)
                for (key, count) in counts.day(date) { simulated["\(key.queue) \(date) \(key.slot.index)"] = count }
            }
            #expect(simulated.values.reduce(0, +) > 1_000)
            #expect(simulated.values.reduce(0, +) == history.values.reduce(0, +))
            // A slot with no offer is 0 on either side: the history keeps a row for a contact
            // queued and neither answered nor abandoned (offered 0), the oracle none.
            let differing = Set(simulated.keys).union(history.keys).filter {
                (simulated[$0] ?? 0) != (history[$0] ?? 0)
            }.sorted()
            let examples = differing.prefix(3).map { "\($0): \(simulated[$0] ?? 0) vs \(history[$0] ?? 0)" }
            #expect(differing.count == 0, "\(examples)")
            // The shocks struck some of the seeded store-days.
            let schedule = TrafficShocks(share: shocks, seed: seed)
            let struck = flows.simulatedStores.filter { store in
                (dates.lowerBound.dayNumber...dates.upperBound.dayNumber).contains {
                    schedule.shock(store: store.id, on: CivilDate(dayNumber: $0)) != nil
                }
            }
            #expect(!struck.isEmpty)
        }
    }
}
