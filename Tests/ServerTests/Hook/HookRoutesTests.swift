import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import OperatingHours
import Primitives
import Testing

@testable import Server

@Suite("POST /v1/hooks/{flow}")
struct HookRoutesTests {
    typealias F = HookFixtures

    @Test("Connect event: the store from the dialed number, closed for the year end", arguments: HookTestMode.allCases)
    func connectByDialedNumber(mode: HookTestMode) async throws {
        let body = F.connectEvent(dialed: "+81355500103", parameters: ["at": "2026-12-31T22:30:00+09:00"])
        try await F.withClient(mode) { client in
            try await client.execute(
                uri: "/v1/hooks/main", method: .post, headers: F.jsonHeaders, body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let answer = F.object(response)
                #expect(answer["result"] == "closed")
                #expect(answer["storeId"] == "shinjuku-izakaya")
                #expect(answer["dayType"] == "closure")
                #expect(answer["holidayName"] == "")
                #expect(answer["closesAt"] == "")
                #expect(answer["minutesUntilClose"] == "")
                #expect(answer["nextOpenAt"] == "2027-01-03T16:00:00+09:00")
                #expect(answer["rule"] == "closed-for-closure")
                #expect(answer["prompt"] == "closed_closure")
            }
        }
    }

    @Test("Connect event: Parameters.storeId, then the storeId attribute, win over the dialed number")
    func connectStorePrecedence() async throws {
        try await F.withClient(.router) { client in
            let byParameter = F.connectEvent(
                attributes: ["storeId": "ebisu-bistro"],
                parameters: ["storeId": "ginza-sushi", "at": "2026-06-10T21:50:00+09:00"])
            try await client.execute(
                uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: byParameter)
            ) { response in
                let answer = F.object(response)
                #expect(answer["storeId"] == "ginza-sushi")
                #expect(answer["result"] == "open")
                #expect(answer["minutesUntilClose"] == "10")
                #expect(answer["closesAt"] == "2026-06-10T22:00:00+09:00")
                #expect(answer["prompt"] == "last_order")
            }
            let byAttribute = F.connectEvent(
                attributes: ["storeId": "ebisu-bistro"], parameters: ["at": "2026-05-05T12:00:00+09:00"])
            try await client.execute(
                uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: byAttribute)
            ) { response in
                let answer = F.object(response)
                #expect(answer["storeId"] == "ebisu-bistro")
                #expect(answer["dayType"] == "holiday")
                #expect(answer["holidayName"] == "こどもの日")
            }
        }
    }

    @Test(
        "plain body (Twilio/Genesys): storeId, at, attributes; the same input gives the same bytes",
        arguments: HookTestMode.allCases)
    func plainBody(mode: HookTestMode) async throws {
        let body = #"{"storeId":"kyoto-kaiseki","at":"2026-06-10T18:00:00+09:00","attributes":{"language":"en"}}"#
        try await F.withClient(mode) { client in
            let first = try await client.execute(
                uri: "/v1/hooks/main", method: .post, headers: F.jsonHeaders, body: ByteBuffer(string: body))
            #expect(first.status == .ok)
            let answer = F.object(first)
            #expect(answer["result"] == "open")
            #expect(answer["queue"] == "english")
            #expect(answer["localTime"] == "2026-06-10T18:00:00+09:00")
            let second = try await client.execute(
                uri: "/v1/hooks/main", method: .post, headers: F.jsonHeaders, body: ByteBuffer(string: body))
            #expect(second.body == first.body)
        }
    }

    @Test("plain body: the dialed number, and `at` defaulting to now")
    func plainDialedNumberAndNow() async throws {
        try await F.withClient(.router) { client in
            try await client.execute(
                uri: "/v1/hooks/reservations", method: .post,
                body: ByteBuffer(string: #"{"dialedNumber":"+81 3-5550-0106"}"#)
            ) { response in
                let answer = F.object(response)
                #expect(response.status == .ok)
                #expect(answer["storeId"] == "ginza-sushi")
                // The fixed clock: Wednesday 2026-06-10 12:00 in Tokyo.
                #expect(answer["localTime"] == "2026-06-10T12:00:00+09:00")
                #expect(answer["flow"] == "reservations")
            }
        }
    }

    @Test("unknown store: 200 with result=error and error=unknown_store", arguments: HookTestMode.allCases)
    func unknownStore(mode: HookTestMode) async throws {
        try await F.withClient(mode) { client in
            for body in [#"{"storeId":"nowhere"}"#, F.connectEvent(dialed: "+81300000000"), "{}"] {
                try await client.execute(uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: body)) {
                    response in
                    #expect(response.status == .ok)
                    let answer = F.object(response)
                    #expect(answer["result"] == "error")
                    #expect(answer["error"] == "unknown_store")
                    #expect(answer["errorMessage"]?.isEmpty == false)
                    #expect(answer["dayType"] == "")
                }
            }
        }
    }

    @Test("unknown flow: 404", arguments: HookTestMode.allCases)
    func unknownFlow(mode: HookTestMode) async throws {
        try await F.withClient(mode) { client in
            try await client.execute(
                uri: "/v1/hooks/nonexistent", method: .post, body: ByteBuffer(string: #"{"storeId":"ginza-sushi"}"#)
            ) { response in
                #expect(response.status == .notFound)
                #expect(F.object(response)["error"] == "unknown_flow")
            }
        }
    }

    @Test("malformed and ill-typed bodies, and a bad `at`: 400 with a JSON reason", arguments: HookTestMode.allCases)
    func badRequests(mode: HookTestMode) async throws {
        let cases: [(body: String, reason: String)] = [
            ("{not json", "malformed JSON"),
            ("", "empty"),
            ("[1,2]", "JSON object"),
            ("\"text\"", "JSON object"),
            (#"{"storeId":{"id":"x"}}"#, "`storeId` must be a string"),
            (#"{"attributes":["a"]}"#, "`attributes` must be a JSON object"),
            (#"{"attributes":{"a":{"b":1}}}"#, "`attributes.a` must be a string"),
            (#"{"Details":{"ContactData":{"Attributes":{"x":[1]}}}}"#, "`Details.ContactData.Attributes.x`"),
            (#"{"storeId":"ginza-sushi","at":"tomorrow"}"#, "`at`"),
            (#"{"storeId":"ginza-sushi","at":"2026-06-10T18:00:00"}"#, "no time zone"),
            (F.connectEvent(parameters: ["at": "2026-02-30T10:00:00Z"]), "`at`"),
            (String(repeating: "[", count: 40_000), "malformed JSON"),
        ]
        try await F.withClient(mode) { client in
            for testCase in cases {
                try await client.execute(
                    uri: "/v1/hooks/main", method: .post, headers: F.jsonHeaders,
                    body: ByteBuffer(string: testCase.body)
                ) { response in
                    #expect(response.status == .badRequest, "\(testCase.body.prefix(60))")
                    let error = F.object(response)
                    #expect(error["error"] == "bad_request")
                    #expect(error["reason"]?.contains(testCase.reason) == true, "\(error)")
                }
            }
        }
    }

    @Test("a body over 64 KB: 413", arguments: HookTestMode.allCases)
    func tooLarge(mode: HookTestMode) async throws {
        let padding = String(repeating: "x", count: 70_000)
        let body = #"{"storeId":"ginza-sushi","attributes":{"note":"\#(padding)"}}"#
        try await F.withClient(mode) { client in
            try await client.execute(uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: body)) {
                response in
                #expect(response.status == .contentTooLarge)
                #expect(F.object(response)["error"] == "payload_too_large")
            }
            // Just under the limit is fine.
            let fits = #"{"storeId":"ginza-sushi","attributes":{"note":"\#(padding.prefix(60_000))"}}"#
            try await client.execute(uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: fits)) {
                response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("no client input gives a 5xx: random and mutated bodies")
    func noServerErrorsForRandomInput() async throws {
        var generator = SplitMix64(seed: 0x5717_C4B0)
        let seeds = [
            F.connectEvent(parameters: ["at": "2026-12-31T22:30:00+09:00", "storeId": "ginza-bar"]),
            #"{"storeId":"ginza-sushi","at":"2026-06-10T21:50:00+09:00","attributes":{"language":"en"}}"#,
        ]
        let alphabet = Array(#"{}[]":,0123456789.eE+-tfnul\ abcZT"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xE3, 0xFF]
        var inputs: [(flow: String, bytes: [UInt8])] = []
        for round in 0..<600 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            if round % 5 == 4 {
                bytes = (0..<Int(generator.next() % 200)).map { _ in
                    alphabet[Int(generator.next() % UInt64(alphabet.count))]
                }
            } else {
                for _ in 0..<(1 + Int(generator.next() % 4)) where !bytes.isEmpty {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: index)
                    }
                }
            }
            inputs.append((["main", "reservations", "x", "%20", "main%00"][round % 5], bytes))
        }
        let cases = inputs
        try await F.withClient(.router) { client in
            for input in cases {
                try await client.execute(
                    uri: "/v1/hooks/\(input.flow)", method: .post, body: ByteBuffer(bytes: input.bytes)
                ) { response in
                    #expect(response.status.code < 500, "\(String(decoding: input.bytes, as: UTF8.self))")
                    #expect(F.object(response)["error"] != nil || F.object(response)["result"] != nil)
                }
            }
        }
    }

    @Test("an answer over 32 KB becomes result=error, error=answer_too_large")
    func oversizedAnswer() async throws {
        let flows = try FlowSet.load(files: [
            (
                "echo.yaml",
                """
                profiles:
                  - id: always
                    weekly: { daily: 00:00-24:00 }
                stores:
                  - id: echo
                    name: Echo
                    hours: always
                flows:
                  - name: echo
                    default:
                      set:
                        note: "{{contact.note}}{{contact.note}}"
                """
            )
        ])
        let router = F.router(store: FixedFlows(flows))
        let note = String(repeating: "y", count: 20_000)
        try await F.withClient(.router, router: router) { client in
            try await client.execute(
                uri: "/v1/hooks/echo", method: .post,
                body: ByteBuffer(string: #"{"storeId":"echo","attributes":{"note":"\#(note)"}}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes < 32 * 1024)
                let answer = F.object(response)
                #expect(answer["result"] == "error")
                #expect(answer["error"] == "answer_too_large")
            }
        }
    }
}
