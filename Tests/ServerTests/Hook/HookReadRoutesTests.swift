import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Server

@Suite("GET /v1/stores/{id}/hours, /v1/calendar/{year}, /openapi.yaml, /v1/ping")
struct HookReadRoutesTests {
    typealias F = HookFixtures

    struct Hours: Decodable {
        struct Day: Decodable {
            var date: String
            var weekday: String
            var dayType: String
            var name: String
            var holidayName: String
            var spans: [[String: String]]
        }
        var storeId: String
        var timeZone: String
        var from: String
        var to: String
        var days: [Day]
    }

    struct Calendar: Decodable {
        struct Entry: Decodable {
            var date: String
            var name_ja: String
            var name_en: String
            var kind: String
            var provisional: Bool
        }
        var year: Int
        var calendar: String
        var holidays: [Entry]
    }

    @Test("hours over the year end of an izakaya: overnight spans, closure, holidays", arguments: HookTestMode.allCases)
    func hours(mode: HookTestMode) async throws {
        try await F.withClient(mode) { client in
            try await client.execute(
                uri: "/v1/stores/shinjuku-izakaya/hours?from=2026-12-30&to=2027-01-04", method: .get
            ) { response in
                #expect(response.status == .ok)
                let hours = try JSONDecoder().decode(Hours.self, from: Data(buffer: response.body))
                #expect(hours.storeId == "shinjuku-izakaya")
                #expect(hours.timeZone == "Asia/Tokyo")
                #expect(hours.days.map(\.date) == (30...31).map { "2026-12-\($0)" } + (1...4).map { "2027-01-0\($0)" })
                let byDate = Dictionary(uniqueKeysWithValues: hours.days.map { ($0.date, $0) })
                #expect(byDate["2026-12-31"]?.dayType == "closure")
                #expect(byDate["2026-12-31"]?.name == "年末年始休業")
                #expect(byDate["2026-12-31"]?.spans.isEmpty == true)
                #expect(byDate["2027-01-01"]?.holidayName == "元日")
                let sunday = byDate["2027-01-03"]
                #expect(sunday?.weekday == "Sunday")
                #expect(sunday?.spans.first?["opensAt"] == "2027-01-03T16:00:00+09:00")
                // Wednesday 12-30 is a weekday 17:00-24:00.
                #expect(byDate["2026-12-30"]?.spans.first?["end"] == "24:00")
                #expect(byDate["2026-12-30"]?.spans.first?["closesAt"] == "2026-12-31T00:00:00+09:00")
            }
        }
    }

    @Test("hours: defaults to a week from the store's today; errors are 400 or 404")
    func hoursErrors() async throws {
        try await F.withClient(.router) { client in
            try await client.execute(uri: "/v1/stores/ginza-bar/hours", method: .get) { response in
                let hours = try JSONDecoder().decode(Hours.self, from: Data(buffer: response.body))
                #expect(hours.from == "2026-06-10" && hours.to == "2026-06-16" && hours.days.count == 7)
            }
            try await client.execute(uri: "/v1/stores/ginza-bar/hours?from=2026-01-01&to=2027-01-01", method: .get) {
                #expect($0.status == .ok)
            }
            let cases = [
                "/v1/stores/ginza-bar/hours?from=2026-01-01&to=2027-01-02",
                "/v1/stores/ginza-bar/hours?from=2026-02-10&to=2026-02-01",
                "/v1/stores/ginza-bar/hours?from=2026-13-01",
                "/v1/stores/ginza-bar/hours?from=2026-01-01&to=soon",
            ]
            for uri in cases {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(F.object(response)["reason"]?.isEmpty == false)
                }
            }
            try await client.execute(uri: "/v1/stores/nowhere/hours", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(F.object(response)["error"] == "unknown_store")
            }
        }
    }

    @Test("a store id or flow name spelled with percent-encoding is decoded", arguments: HookTestMode.allCases)
    func percentEncodedSegments(mode: HookTestMode) async throws {
        try await F.withClient(mode) { client in
            try await client.execute(uri: "/v1/stores/ginza%2Dbar/hours", method: .get) { response in
                #expect(response.status == .ok)
                let hours = try JSONDecoder().decode(Hours.self, from: Data(buffer: response.body))
                #expect(hours.days.count == 7)
            }
            try await client.execute(
                uri: "/v1/hooks/m%61in", method: .post, headers: F.jsonHeaders,
                body: ByteBuffer(string: #"{"storeId":"ginza-sushi"}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(F.object(response)["result"] != nil)
            }
            // A name that is not one, decoded: unknown, named as the caller meant it.
            try await client.execute(
                uri: "/v1/hooks/%E4%BA%88%E7%B4%84", method: .post, headers: F.jsonHeaders,
                body: ByteBuffer(string: #"{"storeId":"ginza-sushi"}"#)
            ) { response in
                #expect(response.status == .notFound)
                #expect(F.object(response)["reason"]?.contains("予約") == true, "\(F.object(response))")
            }
        }
    }

    @Test("calendar of 2026, with its citizens' holiday", arguments: HookTestMode.allCases)
    func calendar(mode: HookTestMode) async throws {
        try await F.withClient(mode) { client in
            try await client.execute(uri: "/v1/calendar/2026", method: .get) { response in
                #expect(response.status == .ok)
                let calendar = try JSONDecoder().decode(Calendar.self, from: Data(buffer: response.body))
                #expect(calendar.year == 2026 && calendar.calendar == "japan")
                #expect(calendar.holidays.first?.date == "2026-01-01")
                #expect(calendar.holidays.first?.name_ja == "元日")
                let citizens = calendar.holidays.first { $0.date == "2026-09-22" }
                #expect(citizens?.kind == "citizens")
                #expect(citizens?.name_en == "Citizens' Holiday")
                #expect(calendar.holidays.contains { $0.date == "2026-05-06" && $0.kind == "substitute" })
                #expect(calendar.holidays.allSatisfy { !$0.provisional })
            }
            try await client.execute(uri: "/v1/calendar/2040", method: .get) { response in
                let calendar = try JSONDecoder().decode(Calendar.self, from: Data(buffer: response.body))
                #expect(calendar.holidays.contains { $0.provisional })
            }
            try await client.execute(uri: "/v1/calendar/2027?calendar=hanamaru-group", method: .get) { response in
                let calendar = try JSONDecoder().decode(Calendar.self, from: Data(buffer: response.body))
                #expect(calendar.holidays.contains { $0.date == "2027-06-01" && $0.kind == "one_off" })
            }
        }
    }

    @Test("calendar: years outside the range or not numbers are 400; an unknown calendar 404")
    func calendarErrors() async throws {
        try await F.withClient(.router) { client in
            for year in ["1947", "2151", "abc", "-1", "99999999999999999999", "2026.0"] {
                try await client.execute(uri: "/v1/calendar/\(year)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(year)")
                    #expect(F.object(response)["reason"]?.contains("1948") == true)
                }
            }
            try await client.execute(uri: "/v1/calendar/2026?calendar=mars", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(F.object(response)["error"] == "unknown_calendar")
            }
        }
    }

    @Test("/openapi.yaml is OpenAPI 3.1 and documents every route the server has", arguments: HookTestMode.allCases)
    func openAPI(mode: HookTestMode) async throws {
        try await F.withClient(mode) { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("openapi: 3.1"))
                let documented = Set(
                    text.split(separator: "\n").filter { $0.hasPrefix("  /") && $0.hasSuffix(":") }
                        .map { String($0.dropFirst(2).dropLast()) })
                // The routes of this server (hook, health, metrics) and the console's (the staffing
                // panel's `/v1/staffing` and the intraday chart's `/v1/staffing/intraday` too:
                // StaffingRoutesTests, ServeStaffingProcessTests).
                let served = [
                    "/v1/hooks/{flow}", "/v1/stores/{id}/hours", "/v1/calendar/{year}", "/v1/ping", "/health",
                    "/ready", "/ready/{scope}", "/metrics", "/openapi.yaml", "/v1/floor", "/v1/floor/events",
                    "/v1/floor/stream", "/", "/console", "/v1/staffing", "/v1/staffing/intraday",
                ]
                #expect(documented == Set(served))
                for operation in ["post:", "get:"] { #expect(text.contains(operation)) }
            }
            try await client.execute(uri: "/v1/ping", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok")
            }
        }
    }

    @Test("the router's own routes are all in the document")
    func routerRoutesDocumented() throws {
        let router = F.router()
        let text = APIDocumentRoutes.bundledDocument
        for route in router.routes {
            let path = route.path.components.map(\.description).joined(separator: "/")
            #expect(text.contains("\n  /\(path):\n"), "\(route.method) /\(path)")
            #expect(
                text.contains("\n  /\(path):\n    \(route.method.rawValue.lowercased()):\n"), "\(route.method) /\(path)"
            )
        }
    }
}
