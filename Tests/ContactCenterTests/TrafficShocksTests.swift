import Foundation
import Primitives
import Testing

@testable import ContactCenter

/// Shock days: decided by the seed, the store and the date alone; their factor from their time
/// of day to the end of the business day; the simulation deterministic with them.
@Suite("Traffic shocks")
struct TrafficShocksTests {
    static let stores = (0..<50).map { "store-\($0)" }
    static let days = (0..<400).map { CivilDate(dayNumber: CivilDate(year: 2026, month: 1, day: 1)!.dayNumber + $0) }

    static func struck(_ shocks: TrafficShocks) -> [String] {
        stores.flatMap { store in
            days.compactMap { day in shocks.shock(store: store, on: day).map { "\(store) \(day) \($0.name)" } }
        }
    }

    @Test("the same seed gives the same store-days, another seed others; about the share of them, half surges")
    func deterministic() {
        let shocks = TrafficShocks(share: 0.05, seed: 42)
        let struck = Self.struck(shocks)
        #expect(struck == Self.struck(TrafficShocks(share: 0.05, seed: 42)))
        let other = Self.struck(TrafficShocks(share: 0.05, seed: 43))
        #expect(Set(struck).intersection(other).count < struck.count / 5)
        // 20,000 store-days at 5 %: 1,000 expected, a standard deviation of 31.
        #expect((850...1_150).contains(struck.count), "\(struck.count)")
        let surges = struck.filter { $0.hasSuffix("surge") }.count
        #expect(abs(surges - struck.count / 2) < struck.count / 5, "\(surges) of \(struck.count)")
        #expect(Self.struck(TrafficShocks(share: 0, seed: 42)).isEmpty)
        #expect(Self.struck(TrafficShocks(share: 1, seed: 42)).count == 20_000)
    }

    @Test("a surge from 11:00 and a slump from 17:00, each until 05:00 the next morning (Japan time)")
    func window() throws {
        let shocks = TrafficShocks(share: 0.3, seed: 7)
        func at(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }
        // A store-day with a surge and the next day without any, and one with a slump.
        var surge: (String, CivilDate)?
        var slump: (String, CivilDate)?
        for store in Self.stores {
            for day in Self.days.dropLast() where shocks.shock(store: store, on: day.adding(days: 1)) == nil {
                switch shocks.shock(store: store, on: day)?.name {
                case "surge" where surge == nil: surge = (store, day)
                case "slump" where slump == nil: slump = (store, day)
                default: break
                }
            }
        }
        let (surgeStore, surgeDay) = try #require(surge)
        let (slumpStore, slumpDay) = try #require(slump)
        let next = surgeDay.adding(days: 1)
        #expect(shocks.factor(store: surgeStore, at: at("\(surgeDay)T10:59:59+09:00")) == 1)
        #expect(shocks.factor(store: surgeStore, at: at("\(surgeDay)T11:00:00+09:00")) == 1.6)
        #expect(shocks.factor(store: surgeStore, at: at("\(surgeDay)T23:59:59+09:00")) == 1.6)
        #expect(shocks.factor(store: surgeStore, at: at("\(next)T04:59:59+09:00")) == 1.6)
        #expect(shocks.factor(store: surgeStore, at: at("\(next)T05:00:00+09:00")) == 1)
        #expect(shocks.factor(store: slumpStore, at: at("\(slumpDay)T16:59:59+09:00")) == 1)
        #expect(shocks.factor(store: slumpStore, at: at("\(slumpDay)T17:00:00+09:00")) == 0.5)
        #expect(shocks.factor(store: slumpStore, at: at("\(slumpDay.adding(days: 1))T04:59:59+09:00")) == 0.5)
    }

    /// One store, every day shocked, flat hours: a day's arrivals from 11:00 against a run without.
    static func arrivals(shocks: TrafficShocks?, seed: UInt64) async -> (messages: [SimulatedMessage], after11: Int) {
        let start = UTCTimestamp(iso8601: "2026-12-01T05:00:00+09:00")!
        var configuration = TrafficSimulationConfiguration(
            stores: [.init(id: "s", dialedNumber: "+81300000000", queue: "q")], agentCount: 3, seed: seed,
            start: start, arrivalsEnd: start.adding(seconds: 20 * 3_600), callsPerHourPerStore: 60,
            hourlyShape: Array(repeating: 1, count: 24))
        configuration.shocks = shocks
        struct Closed: TrafficEnvironment {
            func isOpen(storeId: String, at instant: UTCTimestamp) async -> Bool { false }
        }
        var simulation = TrafficSimulation(configuration: configuration)
        let messages = await simulation.advance(to: start.adding(seconds: 22 * 3_600), environment: Closed())
        let eleven = UTCTimestamp(iso8601: "2026-12-01T11:00:00+09:00")!
        let after = try? messages.filter { $0.kind == .contactRecord }.map {
            try ContactTraceRecord(jsonData: $0.value)
        }
        .filter { $0.initiationTimestamp.map { $0 >= eleven } ?? false }.count
        return (messages, after ?? 0)
    }

    @Test("in the simulation: the same settings give the same messages; a surge day's rate is 1.6× from 11:00")
    func simulation() async throws {
        let surgeEveryDay = TrafficShocks(share: 1, seed: try #require(Self.seedWithSurge()))
        let a = await Self.arrivals(shocks: surgeEveryDay, seed: 5)
        let b = await Self.arrivals(shocks: surgeEveryDay, seed: 5)
        #expect(a.messages.map(\.value) == b.messages.map(\.value))
        let plain = await Self.arrivals(shocks: nil, seed: 5)
        // 14 hours (11:00 to 01:00) at 60 an hour: 840 without the surge, 1,344 with it (sd ~ 29 and 37).
        #expect((740...940).contains(plain.after11), "\(plain.after11)")
        #expect((1_220...1_470).contains(a.after11), "\(a.after11)")
    }

    /// A seed whose shock of store "s" on 2026-12-01 is a surge.
    static func seedWithSurge() -> UInt64? {
        (0..<100).map(UInt64.init).first {
            TrafficShocks(share: 1, seed: $0).shock(store: "s", on: CivilDate(year: 2026, month: 12, day: 1)!)?.name
                == "surge"
        }
    }
}
