import Foundation
import Hummingbird
import HummingbirdTesting
import Server
import Testing

@Suite("Health and readiness")
struct HealthTests {
    @Test("/health is always 200; /ready is 200 only when every check passes, with details")
    func readiness() async throws {
        let database = ClosureReadinessCheck(name: "database") { .ok() }
        let broker = ClosureReadinessCheck(name: "kafka") { .failing("all brokers down") }
        let ready = Application(router: buildRouter(dependencies: ServerDependencies(readinessChecks: [database])))
        try await ready.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""status":"ready""#))
            }
        }
        let notReady = Application(
            router: buildRouter(dependencies: ServerDependencies(readinessChecks: [database, broker]))
        )
        // Over a socket from 127.0.0.1: the operator on the host sees the details.
        try await notReady.test(.live) { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let body = String(buffer: response.body)
                #expect(body.contains("all brokers down"))
                #expect(body.contains(#""status":"not_ready""#))
            }
        }
        // A caller whose address is not loopback (here: none known) learns which check fails, not why.
        try await notReady.test(.router) { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let body = String(buffer: response.body)
                #expect(!body.contains("all brokers down"), "\(body)")
                #expect(body.contains(#""kafka":{"#) && body.contains("failing"), "\(body)")
                #expect(body.contains(#""status":"not_ready""#))
            }
        }
    }
}
