import ContactCenter
import Foundation
import OperatingHours
import Primitives

/// `switchboard staffing oracle`: what the simulator that seeded the history expected, per queue,
/// business date and 15 minutes (``StaffingOracle``), for the days a backtest scores.
///
/// λ is the mean of replicas: the seeding's simulation (the same stores, routing profiles, agents
/// and shocks) run again over the backtest's days with other traffic seeds, each counting the
/// contacts it offers to each queue as `staffing_history` does (``SimulatedOffer``), filed by the
/// store's business day and its 15-minute slot. Replicas, not a formula: callbacks and the
/// overflow queue's transfers depend on how long callers wait, which only the simulation knows.
/// Each replica starts a day before the first date (agents log in, queues fill) and ends when
/// the last business day has. The shocked queue-days are those of a store the shocks strike.
public struct StaffingOracleBuilder: Sendable {
    var flowsDirectory: String
    var agents: Int
    var seed: UInt64
    var shocks: Double

    /// An oracle of the history ``StaffingHistorySeeder`` seeds with the same settings.
    public init(flowsDirectory: String, agents: Int, seed: UInt64, shocks: Double) {
        self.flowsDirectory = flowsDirectory
        self.agents = agents
        self.seed = seed
        self.shocks = shocks
    }

    /// The oracle of `dates` (consecutive business dates) from `replicas` replicas.
    /// - Throws: a flow file that does not load; `CancellationError`.
    public func build(dates: ClosedRange<CivilDate>, replicas: Int) async throws -> StaffingOracle {
        let flows = try FlowStore.load(directory: flowsDirectory).flows
        return try await build(flows: flows, dates: dates, replicas: replicas)
    }

    func build(flows: FlowSet, dates: ClosedRange<CivilDate>, replicas: Int) async throws -> StaffingOracle {
        let stores = flows.simulatedStores
        let filing = BusinessDayFiling(flows: flows, dates: dates)
        var counts = OfferedHistory()
        let day: Int64 = 86_400_000
        let offset = Int64(filing.utcOffsetSeconds) * 1_000
        let start = Int64(dates.lowerBound.dayNumber - 1) * day - offset
        let arrivalsEnd =
            Int64(dates.upperBound.dayNumber + 1) * day - offset + Int64(TrafficShocks.businessDayEndMinute) * 60_000
        var instanceArn = ""
        for replica in 0..<max(1, replicas) {
            var configuration = StaffingHistorySeeder.configuration(
                stores: stores, agents: agents, seed: seed, traffic: seed &+ 1_000_003 &* UInt64(replica + 1),
                shocks: shocks, start: start, arrivalsEnd: arrivalsEnd)
            configuration.emitsMessages = false
            instanceArn = configuration.instanceArn
            try await Self.count(
                configuration, through: arrivalsEnd + 2 * 3_600_000, flows: flows, filing: filing, dates: dates,
                into: &counts)
        }
        var oracle = StaffingOracle()
        oracle.dates = Set(
            (dates.lowerBound.dayNumber...dates.upperBound.dayNumber).map { CivilDate(dayNumber: $0) })
        let scale = 1 / Double(max(1, replicas))
        for date in oracle.dates {
            for (key, count) in counts.day(date) {
                oracle.expected.add(count * scale, queue: key.queue, slot: key.slot, on: date)
            }
        }
        if shocks > 0 {
            let schedule = TrafficShocks(share: shocks, seed: seed)
            for store in stores {
                let queue = TrafficSimulation.queueArn(store.queue, instanceArn: instanceArn)
                for date in oracle.dates where schedule.shock(store: store.id, on: date) != nil {
                    oracle.shocked[queue, default: []].insert(date)
                }
            }
        }
        return oracle
    }

    /// Runs `configuration` through `end` (ms since 1970) and adds the contacts it offers on
    /// `dates` to `counts`, by queue, business date and slot.
    static func count(
        _ configuration: TrafficSimulationConfiguration, through end: Int64, flows: FlowSet,
        filing: BusinessDayFiling, dates: ClosedRange<CivilDate>, into counts: inout OfferedHistory
    ) async throws {
        var recording = configuration
        recording.recordsOffers = true
        var simulation = TrafficSimulation(configuration: recording)
        let environment = StaffingHistorySeeder.FlowEnvironment(flows: flows)
        var cursor = configuration.start.millisecondsSince1970
        while cursor < end {
            try Task.checkCancellation()
            cursor = min(end, cursor + 6 * 3_600_000)
            _ = await simulation.advance(to: UTCTimestamp(millisecondsSince1970: cursor), environment: environment)
            for offer in simulation.takeOffers() {
                guard let (date, slot) = filing.file(store: offer.storeId, at: offer.enqueued), dates.contains(date)
                else { continue }
                counts.add(1, queue: offer.queue, slot: slot, on: date)
            }
        }
    }
}

/// Files an instant of a store into its business date and 15-minute slot, as
/// `staffing_history` does: the local date, or the day before while the store's business day
/// that began then has not closed; the slot counted from that date's local midnight.
struct BusinessDayFiling: Sendable {
    /// Per store, per business date (day number), when the day's last opening span closes (ms).
    private var closes: [String: [Int: Int64]] = [:]
    private var offsets: [String: TimeZoneOffsets] = [:]
    /// The first store's offset from UTC (the stores of `flows/` share one time zone).
    let utcOffsetSeconds: Int

    init(flows: FlowSet, dates: ClosedRange<CivilDate>) {
        utcOffsetSeconds = flows.stores.first.map { $0.schedule.timeZone.offset(atUTC: 0) } ?? 9 * 3_600
        for store in flows.stores {
            let schedule = store.schedule
            offsets[store.id] = schedule.timeZone
            var byDate: [Int: Int64] = [:]
            for number in (dates.lowerBound.dayNumber - 2)...(dates.upperBound.dayNumber + 1) {
                let date = CivilDate(dayNumber: number)
                let spans = schedule.day(date).spans
                guard !spans.isEmpty else { continue }
                byDate[number] =
                    spans.map { schedule.interval(of: $0, on: date).closes.secondsSinceEpoch }.max()! * 1_000
            }
            closes[store.id] = byDate
        }
    }

    /// The business date and slot of `instant` for `store`; nil for a store `flows/` lacks.
    func file(store: String, at instant: UTCTimestamp) -> (CivilDate, DaySlot)? {
        guard let zone = offsets[store] else { return nil }
        let ms = instant.millisecondsSince1970
        let offset = Int64(zone.offset(atUTC: ms / 1_000)) * 1_000
        let local = ms + offset
        var dayNumber = Int((local - ((local % 86_400_000) + 86_400_000) % 86_400_000) / 86_400_000)
        if let previous = closes[store]?[dayNumber - 1], ms < previous { dayNumber -= 1 }
        let midnight = Int64(dayNumber) * 86_400_000 - offset
        return (CivilDate(dayNumber: dayNumber), DaySlot(Int((ms - midnight) / 900_000)))
    }
}
