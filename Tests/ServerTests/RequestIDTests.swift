import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import Server

@Suite("Request ids: in the answer and in every log line of the request")
struct RequestIDTests {
    /// Keeps every log line with its metadata.
    final class Capture: Sendable {
        private let lines = NIOLockedValueBox<[(message: String, metadata: Logger.Metadata)]>([])
        var all: [(message: String, metadata: Logger.Metadata)] { lines.withLockedValue { $0 } }

        func handler(label: String) -> some LogHandler { Handler(capture: self) }

        func append(_ message: String, _ metadata: Logger.Metadata) {
            lines.withLockedValue { $0.append((message, metadata)) }
        }

        struct Handler: LogHandler {
            let capture: Capture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                capture.append(
                    event.message.description, metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }))
            }
        }
    }

    private func application(_ capture: Capture) -> some ApplicationProtocol {
        let router = buildRouter(dependencies: ServerDependencies())
        router.get("/v1/echo") { _, context -> String in
            context.logger.info("inside the handler")
            return "ok"
        }
        router.get("/v1/fails") { _, _ -> String in throw HTTPError(.badRequest, message: "no") }
        return Application(router: router, logger: Logger(label: "test") { capture.handler(label: $0) })
    }

    @Test("a caller's X-Request-ID is kept: echoed, and on the handler's and the access log's lines")
    func suppliedId() async throws {
        let capture = Capture()
        try await application(capture).test(.router) { client in
            try await client.execute(uri: "/v1/echo?token=secret", method: .get, headers: [.requestID: "call-42.a:b_c"])
            {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.requestID] == "call-42.a:b_c")
            }
        }
        let lines = capture.all.filter { $0.metadata["hb.request.id"]?.description == "call-42.a:b_c" }
        #expect(lines.contains { $0.message == "inside the handler" })
        let access = try #require(lines.first { $0.message.hasPrefix("GET /v1/echo 200") })
        #expect(!access.message.contains("secret"), "the query (tokens) is not logged")
        #expect(access.metadata["elapsed_ms"] != nil)
    }

    @Test("without one, or with an unusable one, the generated id is used; errors carry it too")
    func generatedId() async throws {
        let capture = Capture()
        try await application(capture).test(.router) { client in
            var ids: [String] = []
            for supplied in [nil, "", "has space", String(repeating: "x", count: 129), "\u{1B}[31m"] {
                var headers = HTTPFields()
                if let supplied { headers[.requestID] = supplied }
                try await client.execute(uri: "/v1/fails", method: .get, headers: headers) { response in
                    #expect(response.status == .badRequest)
                    let id = try #require(response.headers[.requestID])
                    #expect(id != supplied && id.count >= 16)
                    ids.append(id)
                }
            }
            #expect(Set(ids).count == ids.count, "each request has its own id")
            try await client.execute(uri: "/no/such/route", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.requestID] != nil)
            }
        }
    }
}
