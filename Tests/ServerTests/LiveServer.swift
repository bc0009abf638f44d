import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import Server

/// A client of a running ``HTTPApplication`` (HummingbirdTesting's `.live` runs only its own
/// `ApplicationProtocol` types): requests on one keep-alive connection.
struct LiveClient: Sendable {
    /// A response, its body whole.
    struct Answer: Sendable {
        var head: HTTPResponse
        var body: ByteBuffer
        var status: HTTPResponse.Status { head.status }
        var headers: HTTPFields { head.headerFields }
    }

    let client: TestClient
    let port: Int?

    func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ check: (Answer) async throws -> Void
    ) async throws {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        let response = try await client.execute(request)
        try await check(Answer(head: response.head, body: response.body ?? ByteBuffer()))
    }
}

/// Builds the application on a free port, runs it, and runs `body` with a client of it; the
/// server then shuts down gracefully.
func withLiveServer(
    configuration: ServerConfiguration, dependencies: ServerDependencies, logger: Logger,
    eventLoopGroup: EventLoopGroupProvider = .singleton,
    _ body: @escaping @Sendable (LiveClient) async throws -> Void
) async throws {
    var configuration = configuration
    configuration.port = 0
    let (ports, bound) = AsyncStream<Int>.makeStream()
    let app = buildApplication(
        configuration: configuration, dependencies: dependencies, logger: logger, eventLoopGroup: eventLoopGroup,
        onServerRunning: { channel in
            bound.yield(channel.localAddress?.port ?? 0)
            bound.finish()
        })
    let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await serviceGroup.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(20)))
        client.connect()
        do {
            try await body(LiveClient(client: client, port: port))
        } catch {
            try await client.shutdown()
            await serviceGroup.triggerGracefulShutdown()
            throw error
        }
        try await client.shutdown()
        await serviceGroup.triggerGracefulShutdown()
        try await group.waitForAll()
    }
}
