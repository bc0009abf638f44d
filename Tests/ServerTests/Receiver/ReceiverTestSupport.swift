import ContactCenter
import Foundation
import Hummingbird
import HummingbirdTesting
import Primitives
import Synchronization

@testable import Server

/// A ``RecordPublisher`` in memory: records every call, fails or waits when told to.
final class FakePublisher: RecordPublisher {
    enum Behaviour: Sendable {
        case store
        case fail(PublishFailure.Kind)
        /// Waits until ``release()`` before storing.
        case block
    }

    private let state = Mutex<(calls: [[ReceivedRecord]], behaviour: Behaviour, waiters: Int, permits: Int)>(
        ([], .store, 0, 0))

    init(_ behaviour: Behaviour = .store) {
        state.withLock { $0.behaviour = behaviour }
    }

    func publish(_ records: [ReceivedRecord]) async throws(PublishFailure) {
        let behaviour = state.withLock { state in
            if case .block = state.behaviour { state.waiters += 1 }
            return state.behaviour
        }
        switch behaviour {
        case .store:
            break
        case .fail(let kind):
            throw PublishFailure(kind: kind, failed: records.count, total: records.count, message: "broker down")
        case .block:
            while !state.withLock({ state in
                guard state.permits > 0 else { return false }
                state.permits -= 1
                return true
            }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        state.withLock { $0.calls.append(records) }
    }

    /// Lets one blocked call through.
    func release() { state.withLock { $0.permits += 1 } }

    /// Calls waiting in ``Behaviour/block``.
    var waiters: Int { state.withLock { $0.waiters } }

    /// Every call's records.
    var calls: [[ReceivedRecord]] { state.withLock { $0.calls } }

    /// Every stored record, in order.
    var records: [ReceivedRecord] { calls.flatMap { $0 } }

    func set(_ behaviour: Behaviour) { state.withLock { $0.behaviour = behaviour } }
}

/// Requests as Amazon Data Firehose writes them, from its developer guide's contract.
enum FirehoseFixtures {
    static let key = "firehose-key-for-tests"
    static let previousKey = "previous-key-for-tests"

    /// A CTR payload with its key.
    static func ctr(_ index: Int) -> String {
        #"{"AWSContactTraceRecordFormatVersion":"2017-03-10","ContactId":"contact-\#(index)","Channel":"VOICE","LastUpdateTimestamp":"2026-11-20T01:02:03Z"}"#
    }

    /// The body for `records` (each one record's payload).
    static func body(requestId: String = "req-1", timestamp: Int = 1_578_090_901_599, records: [String]) -> String {
        let items = records.map { #"{"data":"\#(Data($0.utf8).base64EncodedString())"}"# }
        return #"{"requestId":"\#(requestId)","timestamp":\#(timestamp),"records":[\#(items.joined(separator: ","))]}"#
    }

    /// The headers Firehose sends.
    static func headers(requestId: String = "req-1", key: String? = FirehoseFixtures.key, gzip: Bool = false)
        -> HTTPFields
    {
        var headers: HTTPFields = [
            .contentType: "application/json",
            HTTPFields.Element.Name("X-Amz-Firehose-Protocol-Version")!: "1.0",
            HTTPFields.Element.Name("X-Amz-Firehose-Request-Id")!: requestId,
            HTTPFields.Element.Name("X-Amz-Firehose-Source-Arn")!:
                "arn:aws:firehose:ap-northeast-1:123456789012:deliverystream/connect-ctr",
            HTTPFields.Element.Name("X-Amz-Firehose-Common-Attributes")!: #"{"commonAttributes":{"env":"test"}}"#,
        ]
        if let key { headers[HTTPFields.Element.Name("X-Amz-Firehose-Access-Key")!] = key }
        if gzip { headers[.contentEncoding] = "gzip" }
        return headers
    }

    static func buffer(_ body: String, gzip: Bool = false) throws -> ByteBuffer {
        gzip ? ByteBuffer(bytes: try GzipDeflater.compress(Array(body.utf8))) : ByteBuffer(string: body)
    }

    /// A router with the receiver over `publisher`.
    static func router(
        publisher: FakePublisher, configuration: ReceiverConfiguration = .init(accessKeys: [key, previousKey])
    ) -> Router<SwitchboardRequestContext> {
        buildRouter(
            dependencies: ServerDependencies(
                routeProviders: [ReceiverRoutes(publisher: publisher, configuration: configuration)]))
    }

    /// Runs `body` with a client of the receiver.
    static func withClient(
        _ mode: HookTestMode, publisher: FakePublisher,
        configuration: ReceiverConfiguration = .init(accessKeys: [key, previousKey]),
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = Application(
            router: router(publisher: publisher, configuration: configuration),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(mode.setup) { client in try await body(client) }
    }

    /// The JSON object of a response.
    static func object(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
    }
}
