import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Primitives
import SwitchboardTesting
import Testing

@testable import Server

@Suite("POST /v1/firehose/{stream}: Firehose's HTTP endpoint contract")
struct FirehoseRoutesTests {
    typealias F = FirehoseFixtures

    @Test(
        "200 with the request id and a numeric timestamp once every record is stored, gzip or not",
        arguments: HookTestMode.allCases, [false, true])
    func delivers(mode: HookTestMode, gzip: Bool) async throws {
        let publisher = FakePublisher()
        let body = F.body(records: (0..<5).map(F.ctr))
        try await F.withClient(mode, publisher: publisher) { client in
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(gzip: gzip),
                body: try F.buffer(body, gzip: gzip)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.headers[.contentLength] != nil)
                let answer = F.object(response)
                #expect(answer["requestId"] as? String == "req-1")
                #expect(answer["timestamp"] is NSNumber)
                #expect(answer["errorMessage"] == nil)
            }
        }
        let records = publisher.records
        #expect(records.map { String(decoding: $0.key, as: UTF8.self) } == (0..<5).map { "contact-\($0)" })
        #expect(records.map { String(decoding: $0.value, as: UTF8.self) } == (0..<5).map(F.ctr))
        #expect(records.allSatisfy { $0.stream == .contactRecords && $0.rejection == nil })
        #expect(records.first?.origin == "firehose req-1 record 0")
    }

    @Test("a gzip body without Content-Encoding is recognised; optional headers may be missing")
    func tolerant() async throws {
        let publisher = FakePublisher()
        let body = F.body(requestId: "from-body", records: [F.ctr(1)])
        try await F.withClient(.router, publisher: publisher) { client in
            let headers: HTTPFields = [HTTPFields.Element.Name("X-Amz-Firehose-Access-Key")!: F.previousKey]
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: headers,
                body: try F.buffer(body, gzip: true)
            ) { response in
                #expect(response.status == .ok)
                #expect(F.object(response)["requestId"] as? String == "from-body")
            }
        }
        #expect(publisher.records.count == 1)
    }

    @Test("each JSON object of a record is a message; what can never decode is marked, the rest stored")
    func splitsAndRejects() async throws {
        let publisher = FakePublisher()
        let agentEvent = #"{"AgentARN":"arn:agent/1","EventId":"e1","EventType":"HEART_BEAT"}"#
        let agentEvent2 = #"{"AgentARN":"arn:agent/2","EventId":"e2","EventType":"HEART_BEAT"}"#
        let body = F.body(records: [
            agentEvent + agentEvent2, agentEvent2 + "\n" + agentEvent, "{\"EventId\":\"x\"}", "oops",
        ])
        .replacingOccurrences(of: "]}", with: #",{"data":"***"}]}"#)
        try await F.withClient(.router, publisher: publisher) { client in
            try await client.execute(
                uri: "/v1/firehose/agent-events", method: .post, headers: F.headers(), body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
            }
        }
        let records = publisher.records
        #expect(records.count == 7)
        guard records.count == 7 else { return }
        #expect(
            records[0...3].map { String(decoding: $0.key, as: UTF8.self) } == [
                "arn:agent/1", "arn:agent/2", "arn:agent/2", "arn:agent/1",
            ])
        #expect(records[0].origin == "firehose req-1 record 0 object 0")
        #expect(records[3].origin == "firehose req-1 record 1 object 1")
        #expect(records[4].rejection?.contains("AgentARN") == true)
        #expect(records[4].key == Array("req-1".utf8))
        #expect(records[5].rejection?.contains("not a JSON object") == true)
        #expect(records[5].value == Array("oops".utf8))
        #expect(records[6].rejection?.contains("not valid base64") == true)
        #expect(records[6].value == Array("***".utf8))
    }

    @Test("a small window publishes in several calls, in order")
    func window() async throws {
        let publisher = FakePublisher()
        let body = F.body(records: (0..<50).map(F.ctr))
        try await F.withClient(
            .live, publisher: publisher,
            configuration: ReceiverConfiguration(accessKeys: [F.key], publishWindowBytes: 1_000)
        ) { client in
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(),
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(publisher.records.map { String(decoding: $0.key, as: UTF8.self) } == (0..<50).map { "contact-\($0)" })
    }

    @Test("wrong, missing and unconfigured keys are 401 with the contract's error body; an open receiver accepts all")
    func keys() async throws {
        let publisher = FakePublisher()
        let body = F.body(records: [F.ctr(1)])
        try await F.withClient(.router, publisher: publisher) { client in
            for key in ["wrong", nil] {
                try await client.execute(
                    uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(key: key),
                    body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == .unauthorized)
                    let answer = F.object(response)
                    #expect(answer["requestId"] as? String == "req-1")
                    #expect(answer["timestamp"] is NSNumber)
                    #expect((answer["errorMessage"] as? String)?.isEmpty == false)
                }
            }
        }
        try await F.withClient(
            .router, publisher: publisher, configuration: ReceiverConfiguration(refusesWithoutKeys: true)
        ) { client in
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(),
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(
                    (F.object(response)["errorMessage"] as? String)?.contains("SWITCHBOARD_FIREHOSE_ACCESS_KEYS")
                        == true)
            }
        }
        #expect(publisher.records.isEmpty)
        try await F.withClient(.router, publisher: publisher, configuration: ReceiverConfiguration()) { client in
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(key: nil),
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(publisher.records.count == 1)
    }

    @Test("malformed requests are 400, unknown streams 404, other protocol versions 400, all in the contract's shape")
    func refusals() async throws {
        let publisher = FakePublisher()
        try await F.withClient(.router, publisher: publisher) { client in
            let cases: [(String, HTTPFields, ByteBuffer, HTTPResponse.Status)] = [
                ("/v1/firehose/contact-records", F.headers(), ByteBuffer(string: "{\"requestId\": \"x\""), .badRequest),
                ("/v1/firehose/contact-records", F.headers(), ByteBuffer(string: "not json"), .badRequest),
                ("/v1/firehose/contact-records", F.headers(gzip: true), ByteBuffer(string: "not gzip"), .badRequest),
                ("/v1/firehose/queue-events", F.headers(), ByteBuffer(string: F.body(records: [])), .notFound),
                (
                    "/v1/firehose/contact-records",
                    {
                        var headers = F.headers()
                        headers[HTTPFields.Element.Name("X-Amz-Firehose-Protocol-Version")!] = "2.0"
                        return headers
                    }(), ByteBuffer(string: F.body(records: [])), .badRequest
                ),
                (
                    "/v1/firehose/contact-records",
                    {
                        var headers = F.headers()
                        headers[.contentEncoding] = "br"
                        return headers
                    }(), ByteBuffer(string: F.body(records: [])), .badRequest
                ),
            ]
            for (uri, headers, body, status) in cases {
                try await client.execute(uri: uri, method: .post, headers: headers, body: body) { response in
                    #expect(response.status == status, "\(uri) \(String(buffer: body))")
                    let answer = F.object(response)
                    #expect(answer["requestId"] as? String == "req-1")
                    #expect(answer["timestamp"] is NSNumber)
                    #expect((answer["errorMessage"] as? String)?.isEmpty == false)
                }
            }
        }
        #expect(publisher.records.isEmpty)
    }

    @Test("a body over the limit is 413, declared or inflated")
    func tooLarge() async throws {
        let publisher = FakePublisher()
        let configuration = ReceiverConfiguration(accessKeys: [F.key], maximumBodyBytes: 100_000)
        try await F.withClient(.live, publisher: publisher, configuration: configuration) { client in
            let large = F.body(records: Array(repeating: F.ctr(1), count: 1_000))
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(),
                body: ByteBuffer(string: large)
            ) { response in
                #expect(response.status == .contentTooLarge)
            }
            // Compresses far below the limit, inflates beyond it.
            let bomb = try F.buffer(F.body(records: [String(repeating: " ", count: 500_000)]), gzip: true)
            #expect(bomb.readableBytes < 100_000)
            try await client.execute(
                uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(gzip: true), body: bomb
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(F.object(response)["requestId"] as? String == "req-1")
            }
        }
    }

    @Test("Kafka unavailable is 503, its queue full 429: Firehose retries both")
    func publishFailures() async throws {
        for (kind, status) in [
            (PublishFailure.Kind.unavailable, HTTPResponse.Status.serviceUnavailable),
            (.overloaded, .tooManyRequests),
        ] {
            let publisher = FakePublisher(.fail(kind))
            try await F.withClient(.router, publisher: publisher) { client in
                try await client.execute(
                    uri: "/v1/firehose/contact-records", method: .post, headers: F.headers(),
                    body: ByteBuffer(string: F.body(records: [F.ctr(1)]))
                ) { response in
                    #expect(response.status == status)
                    #expect((F.object(response)["errorMessage"] as? String)?.contains("broker down") == true)
                }
            }
        }
    }

    @Test("beyond the concurrent request limit the receiver answers 429 at once")
    func admission() async throws {
        let publisher = FakePublisher(.block)
        let configuration = ReceiverConfiguration(accessKeys: [F.key], maximumConcurrentRequests: 1)
        try await F.withClient(.live, publisher: publisher, configuration: configuration) { client in
            let url = URL(string: "http://127.0.0.1:\(client.port ?? 0)/v1/firehose/contact-records")!
            func headers(_ id: String) -> [String: String] {
                ["X-Amz-Firehose-Access-Key": F.key, "X-Amz-Firehose-Request-Id": id]
            }
            async let first = httpPost(url, json: F.body(records: [F.ctr(1)]), headers: headers("req-1"))
            while publisher.waiters == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let second = await httpPost(
                url, json: F.body(requestId: "req-2", records: [F.ctr(2)]), headers: headers("req-2"))
            #expect(second?.status == 429)
            #expect(second?.body.contains("\"requestId\":\"req-2\"") == true)
            publisher.release()
            #expect(await first?.status == 200)
        }
        #expect(publisher.records.count == 1)
    }
}
