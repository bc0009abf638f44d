import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Server

@Suite("POST /v1/eventbridge/contact-events: EventBridge API destinations")
struct EventBridgeRoutesTests {
    typealias F = FirehoseFixtures

    static let event = #"""
        {"version":"0","id":"5c3e8bd4-0000-4000-8000-000000000001","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"123456789012","time":"2026-11-20T01:02:03Z","region":"ap-northeast-1",
         "resources":[],"detail":{"eventType":"QUEUED","contactId":"contact-7","channel":"VOICE",
         "initiationMethod":"INBOUND","queueInfo":{"queueArn":"arn:queue/1","enqueueTimestamp":"2026-11-20T01:02:03Z"}}}
        """#

    func post(
        _ client: any TestClientProtocol, headers: HTTPFields, body: String = event,
        _ check: @escaping @Sendable (TestResponse) -> Void
    ) async throws {
        var headers = headers
        headers[.contentType] = "application/json"
        try await client.execute(
            uri: "/v1/eventbridge/contact-events", method: .post, headers: headers, body: ByteBuffer(string: body)
        ) { response in check(response) }
    }

    @Test("the API key header, a bearer token or Basic with the key as password; 200 once stored")
    func credentials() async throws {
        let publisher = FakePublisher()
        let basic = "Basic " + Data("connect:\(F.previousKey)".utf8).base64EncodedString()
        try await F.withClient(.router, publisher: publisher) { client in
            for headers: HTTPFields in [
                [HTTPFields.Element.Name("X-Api-Key")!: F.key], [.authorization: "Bearer \(F.key)"],
                [.authorization: basic],
            ] {
                try await post(client, headers: headers) { response in
                    #expect(response.status == .ok)
                    #expect(F.object(response)["status"] as? String == "stored")
                }
            }
            let wrongBasic = "Basic " + Data("connect:nope".utf8).base64EncodedString()
            for headers: HTTPFields in [
                [:], [HTTPFields.Element.Name("X-Api-Key")!: "nope"], [.authorization: wrongBasic],
            ] {
                try await post(client, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(F.object(response)["error"] as? String == "unauthorized")
                }
            }
        }
        let records = publisher.records
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0.stream == .contactEvents && $0.key == Array("contact-7".utf8) })
        #expect(records.first?.value == Array(Self.event.utf8))
    }

    @Test("malformed input is a 400 with the reason; nothing is stored")
    func malformed() async throws {
        let publisher = FakePublisher()
        try await F.withClient(.router, publisher: publisher) { client in
            for body in ["{", "[]", #"{"detail":{"eventType":"QUEUED"}}"#, "hello"] {
                try await post(client, headers: [HTTPFields.Element.Name("X-Api-Key")!: F.key], body: body) {
                    response in
                    #expect(response.status == .badRequest, "\(body)")
                    #expect((F.object(response)["reason"] as? String)?.isEmpty == false)
                }
            }
        }
        #expect(publisher.records.isEmpty)
    }

    @Test("Kafka unavailable is 503 and a full queue 429, so EventBridge retries")
    func unavailable() async throws {
        for (kind, status) in [
            (PublishFailure.Kind.unavailable, HTTPResponse.Status.serviceUnavailable),
            (.overloaded, .tooManyRequests),
        ] {
            try await F.withClient(.router, publisher: FakePublisher(.fail(kind))) { client in
                try await post(client, headers: [HTTPFields.Element.Name("X-Api-Key")!: F.key]) { response in
                    #expect(response.status == status)
                }
            }
        }
    }
}
