import Foundation
import OperatingHours
import Testing

@testable import Server

/// `store_status` answers what the hook answers: the same decision for every store and every
/// hour of the week of Marine Day 2026 (Monday 20 July; Sunday the 19th is its eve), which
/// crosses a holiday, a pre-holiday, weekends and overnight spans.
@Suite("MCP store_status agrees with the hook")
struct StoreStatusAgreementTests {
    static let server = SwitchboardTools.server(
        flows: HookFixtures.shippedStore, floor: nil, version: "test", now: { HookFixtures.fixedNow })

    /// 2026-07-16T00:00:00+09:00 (a Thursday) and the 168 hours from it.
    static let hours: [Int64] = (0..<168).map { 1_784_127_600 + Int64($0) * 3_600 }

    @Test("every store x hour of the week of Marine Day 2026")
    func everyStoreAndHour() async throws {
        let flows = try #require(HookFixtures.shippedStore.current?.flows)
        let flowName = try #require(flows.flows.first?.name)
        #expect(flows.stores.count > 5)
        var compared = 0
        var sawHoliday = false
        var sawPreHoliday = false
        for store in flows.stores {
            for second in Self.hours {
                let at = ZonedInstant(secondsSinceEpoch: second, utcOffset: 9 * 3_600).iso8601
                let hook = flows.evaluate(
                    flowName: flowName, storeId: store.id, dialedNumber: nil, contactAttributes: [:],
                    parameters: [:], at: Date(timeIntervalSince1970: TimeInterval(second))
                ).attributes
                let status = try await Self.status(storeId: store.id, at: at)
                #expect(status["isOpen"] == .bool(hook["result"] == "open"), "\(store.id) at \(at)")
                #expect(status["dayType"]?.stringValue == hook["dayType"], "\(store.id) at \(at)")
                #expect(status["holidayName"]?.stringValue == hook["holidayName"], "\(store.id) at \(at)")
                #expect(status["holidayNameEn"]?.stringValue == hook["holidayNameEn"], "\(store.id) at \(at)")
                #expect((status["closesAt"]?.stringValue ?? "") == hook["closesAt"], "\(store.id) at \(at)")
                #expect((status["nextOpenAt"]?.stringValue ?? "") == hook["nextOpenAt"], "\(store.id) at \(at)")
                #expect(status["at"]?.stringValue == hook["localTime"], "\(store.id) at \(at)")
                sawHoliday = sawHoliday || hook["dayType"] == "holiday"
                sawPreHoliday = sawPreHoliday || hook["dayType"] == "pre_holiday"
                compared += 1
            }
        }
        #expect(compared == flows.stores.count * 168)
        #expect(sawHoliday && sawPreHoliday)
    }

    @Test("an unknown store and a bad instant are tool errors with a reason")
    func toolErrors() async throws {
        let unknown = try await Self.call("store_status", ["storeId": "nowhere"])
        #expect(unknown["isError"] == true)
        #expect(unknown["structuredContent"]?["error"] == "unknown_store")
        let badInstant = try await Self.call("store_status", ["storeId": "shibuya-trattoria", "at": "tomorrow"])
        #expect(badInstant["isError"] == true)
        #expect(badInstant["structuredContent"]?["error"] == "bad_instant")
        let tooLong = try await Self.call(
            "store_hours", ["storeId": "shibuya-trattoria", "from": "2026-01-01", "to": "2026-03-31"])
        #expect(tooLong["structuredContent"]?["error"] == "range_too_long")
    }

    static func call(_ name: String, _ arguments: JSONValue) async throws -> JSONValue {
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": ["name": .string(name), "arguments": arguments],
        ]
        let response = try #require(await server.handle(request))
        return try #require(response["result"])
    }

    static func status(storeId: String, at: String) async throws -> JSONValue {
        let result = try await call("store_status", ["storeId": .string(storeId), "at": .string(at)])
        #expect(result["isError"] == false)
        return try #require(result["structuredContent"])
    }
}
