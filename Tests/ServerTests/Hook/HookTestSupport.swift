import Foundation
import Hummingbird
import HummingbirdTesting
import OperatingHours
import Roles
import Services
import SwitchboardTesting
import Testing

@testable import Server

/// How a test reaches the server: in-process through the router, or over a live socket.
enum HookTestMode: String, CaseIterable, Sendable, CustomStringConvertible {
    case router, live

    var setup: TestingSetup { self == .router ? .router : .live }
    var description: String { rawValue }
}

/// Shared fixtures of the hook tests.
enum HookFixtures {
    /// The repository's `flows/`.
    static let flowsDirectory = Repository.flowsDirectory

    /// The shipped flows, loaded once.
    static let shippedStore: FlowStore = {
        let store = FlowStore(directory: flowsDirectory)
        store.reload(force: true)
        return store
    }()

    /// 2026-06-10T12:00:00+09:00, a Wednesday, as the clock of tests that need one.
    static let fixedNow = Date(timeIntervalSince1970: 1_781_060_400)

    static let signingSecret = "s3cret-for-tests"

    static let token = "token-for-tests"

    /// Lower-case hexadecimal of `bytes`, written out here rather than through the product's encoder.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// A router with the hook, the API document and readiness.
    static func router(
        store: any FlowProvider = shippedStore, configuration: HookConfiguration = .init(),
        readiness: [any ReadinessCheck] = [FlowReadinessCheck(store: shippedStore)],
        now: @escaping @Sendable () -> Date = { fixedNow }
    ) -> Router<SwitchboardRequestContext> {
        buildRouter(
            dependencies: ServerDependencies(
                readinessChecks: readiness,
                routeProviders: [
                    HookRoutes(store: store, configuration: configuration, now: now),
                    APIDocumentRoutes(),
                ]
            ))
    }

    /// Runs `body` with a client of a server built from `router`.
    static func withClient(
        _ mode: HookTestMode, router: Router<SwitchboardRequestContext> = router(),
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(mode.setup) { client in try await body(client) }
    }

    /// The Amazon Connect Lambda event for a call.
    static func connectEvent(
        dialed: String = "+81355500103", attributes: [String: String] = [:], parameters: [String: String] = [:]
    ) -> String {
        let event: [String: Any] = [
            "Name": "ContactFlowEvent",
            "Details": [
                "ContactData": [
                    "ContactId": "5ca32fbd-8f92-46af-92a5-6b0f970f0efe",
                    "InitialContactId": "5ca32fbd-8f92-46af-92a5-6b0f970f0efe",
                    "Channel": "VOICE",
                    "InitiationMethod": "INBOUND",
                    "InstanceARN": "arn:aws:connect:ap-northeast-1:123456789012:instance/abc",
                    "CustomerEndpoint": ["Address": "+819012345678", "Type": "TELEPHONE_NUMBER"],
                    "SystemEndpoint": ["Address": dialed, "Type": "TELEPHONE_NUMBER"],
                    "Attributes": attributes,
                    "Queue": NSNull(),
                    "MediaStreams": ["Customer": ["Audio": NSNull()]],
                ] as [String: Any],
                "Parameters": parameters,
            ] as [String: Any],
        ]
        let data = try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static let jsonHeaders: HTTPFields = [.contentType: "application/json"]

    /// The body of a response as a string map (the hook's answer or an error).
    static func object(_ response: TestResponse) -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))) ?? [:]
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}
