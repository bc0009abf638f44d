import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Roles
import SwitchboardTesting
import Testing

@testable import Server

/// The probes of a broken client or an attacker, over real sockets against the production
/// application with short timeouts: each connection ends as nginx would end it, within its
/// timeout and not before, and the hook answers throughout.
@Suite("HTTP limits: no connection lives forever", .serialized)
struct HTTPLimitsTests {
    static let limits = HTTPLimits(
        headerTimeout: .seconds(1), bodyTimeout: .seconds(1), idleTimeout: .seconds(2), maxConnections: 12,
        reservedConnections: 3, maxHeadBytes: 32 * 1024, maxHeaderLines: 100)
    /// How late past its timeout a close may come on a loaded 2-core machine (it must come).
    static let slack = Duration.seconds(4)
    static let token = "limits-test-token-0123456789"

    /// `GET /download`: 256 MiB, written as fast as the client reads.
    struct DownloadRoute: RouteProvider {
        func addRoutes(to router: Router<SwitchboardRequestContext>) {
            router.get("/download") { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: "application/octet-stream"],
                    body: ResponseBody { writer in
                        let chunk = ByteBuffer(repeating: 0x61, count: 1 << 20)
                        for _ in 0..<256 { try await writer.write(chunk) }
                        try await writer.finish(nil)
                    })
            }
        }
    }

    /// The server's own event loops: on the shared singleton, other suites running at the same
    /// time (PostgreSQL clients, stream floods) queue work ahead of the timers under test.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Runs `body` with the port of a live server and returns what it returned, once the server
    /// has shut down.
    func withServerReturning<T: Sendable>(
        _ limits: HTTPLimits = limits, _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        let result = ResultBox<T>()
        try await withServer(limits) { port in result.set(try await body(port)) }
        return try #require(result.get())
    }

    /// Runs `body` with the port of a live server: the hook (bearer token), health and readiness.
    func withServer(
        _ limits: HTTPLimits = limits, on eventLoops: MultiThreadedEventLoopGroup = eventLoops,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        var logger = Logger(label: "limits-test")
        logger.logLevel = .critical
        try await withLiveServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, limits: limits),
            dependencies: ServerDependencies(
                readinessChecks: [FlowReadinessCheck(store: HookFixtures.shippedStore)],
                routeProviders: [
                    HookRoutes(
                        store: HookFixtures.shippedStore, configuration: HookConfiguration(bearerTokens: [Self.token])),
                    DownloadRoute(),
                ]),
            logger: logger, eventLoopGroup: .shared(eventLoops)
        ) { client in try await body(client.port!) }
    }

    /// A hook call on a new connection: its status line.
    func hookCall(_ port: Int) async throws -> String {
        let socket = try LoopbackConnection(port: port)
        let body = #"{"Details":{"Parameters":{"storeId":"shibuya-trattoria"}}}"#
        socket.send(
            "POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return await onThread { socket.readResponse(limit: .seconds(10)) }.statusLine
    }

    func expectClosedAfter(_ reading: LoopbackConnection.Reading, _ timeout: Duration, _ what: String) {
        #expect(reading.closed, "\(what): closed (\(reading.elapsed))")
        #expect(reading.elapsed >= timeout - .milliseconds(100), "\(what): not before its timeout (\(reading.elapsed))")
        #expect(reading.elapsed < timeout + Self.slack, "\(what): within its timeout (\(reading.elapsed))")
    }

    @Test("the listen queue holds a flood's connections: 4,096, or the kernel's somaxconn if lower")
    func listenBacklog() async throws {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/sys/net/core/somaxconn"))
        let text = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        try file.close()
        let somaxconn = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await withServer { port in
            // `ss` reports a listening socket's backlog as its Send-Q (the third column).
            let listing = try listeningSockets(port)
            #expect(listing.count == 1, "ss: \(listing)")
            let columns = listing.first?.split(whereSeparator: \.isWhitespace) ?? []
            #expect(columns.count >= 4 && columns[0] == "LISTEN", "ss: \(listing)")
            #expect(columns.count >= 3 && Int(columns[2]) == min(4_096, somaxconn), "ss: \(listing)")
        }
    }

    /// The lines `ss` prints for the TCP sockets listening on `port`.
    func listeningSockets(_ port: Int) throws -> [Substring] {
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ss.arguments = ["ss", "-Hltn", "sport = :\(port)"]
        let output = Pipe()
        ss.standardOutput = output
        try ss.run()
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ss.waitUntilExit()
        return listing.split(separator: "\n")
    }

    @Test("a connection that sends nothing is closed after the header timeout, without an answer")
    func silentConnection() async throws {
        try await withServer { port in
            // Each socket is watched by its own thread from its opening, so a close is seen
            // when it happens, however late this task runs again.
            let readings = try (0..<5).map { _ in
                let socket = try LoopbackConnection(port: port)
                return startOnThread { socket.readUntilClosed(limit: .seconds(10)) }
            }
            #expect(try await hookCall(port) == "HTTP/1.1 200 OK", "the hook answers meanwhile")
            for pending in readings {
                let reading = await pending.value
                expectClosedAfter(reading, .seconds(1), "silent connection")
                #expect(reading.bytes.isEmpty)
            }
        }
    }

    @Test(
        "a graceful shutdown closes connections that sent nothing, or part of a head, at once, not at their header timeout"
    )
    func shutdownClosesSilentConnections() async throws {
        let limits = HTTPLimits(headerTimeout: .seconds(60), bodyTimeout: .seconds(60), idleTimeout: .seconds(60))
        let started = ContinuousClock.now
        let (silent, partial) = try await withServerReturning(limits) { port in
            let silent = try LoopbackConnection(port: port)
            let partial = try LoopbackConnection(port: port)
            partial.send("GET /health HTTP/1.1\r\nHost: x\r\n")
            #expect(try await hookCall(port) == "HTTP/1.1 200 OK", "the server answers beside them")
            return (silent, partial)
        }
        #expect(ContinuousClock.now - started < .seconds(10), "shut down in \(ContinuousClock.now - started)")
        for (socket, what) in [(silent, "silent"), (partial, "a partial head")] {
            let reading = await onThread { socket.readUntilClosed(limit: .seconds(5)) }
            #expect(reading.closed && reading.bytes.isEmpty, "\(what): closed without a word")
        }
    }

    @Test("a head that arrives in pieces is answered once whole; a partial head costs no pipeline until then")
    func headInPieces() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            let body = #"{"Details":{"Parameters":{"storeId":"shibuya-trattoria"}}}"#
            let pieces = [
                "POST /v1/ho", "oks/main HTTP/1.1\r\nHost: x\r\n", "Authorization: Bearer \(Self.token)\r",
                "\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r", "\n\(body)",
            ]
            let reading = await onThread { () -> LoopbackConnection.Reading in
                for piece in pieces {
                    let early = socket.readResponse(limit: .milliseconds(150))
                    if !early.bytes.isEmpty || early.closed { return early }
                    socket.send(piece)
                }
                return socket.readResponse(limit: .seconds(5))
            }
            #expect(reading.statusLine == "HTTP/1.1 200 OK", "\(reading.text)")
            #expect(reading.text.contains(#""storeId":"shibuya-trattoria""#))
        }
    }

    @Test("bytes that cannot begin a request (a TLS handshake) get 400 at once, not a wait for the head's end")
    func notHTTP() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            socket.send([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03])
            let reading = await onThread { socket.readUntilClosed(limit: .seconds(5)) }
            #expect(reading.statusLine == "HTTP/1.1 400 Bad Request", "\(reading.text)")
            #expect(reading.closed && reading.elapsed < .seconds(1), "closed at once (\(reading.elapsed))")
        }
    }

    @Test("the end of a request head is found across reads; a method is token characters up to a space")
    func headScanning() {
        func ends(_ pieces: [String]) -> Bool {
            var buffer = ByteBuffer()
            var position = 0
            var found = false
            for piece in pieces {
                buffer.writeString(piece)
                found = HTTPFirstHeadHandler.headEnds(in: buffer, from: &position)
            }
            return found
        }
        #expect(ends(["GET / HTTP/1.1\r\nHost: x\r\n\r\n"]))
        #expect(ends(["GET / HTTP/1.1\r\nHost: x\r\n", "\r\n"]))
        #expect(ends(["GET / HTTP/1.1\r\nHost: x\r", "\n\r", "\n"]))
        #expect(ends(["GET / HTTP/1.1\nHost: x\n\n"]))
        #expect(!ends(["GET / HTTP/1.1\r\nHost: x\r\n"]))
        #expect(!ends(["GET / HTTP/1.1\r\n", "Host: x\r\n", "X-A: b\r\n"]))
        #expect(!ends(["GET / HTTP/1.1\r\nHost: x\r\r\n"]))
        func may(_ text: String) -> Bool { HTTPFirstHeadHandler.mayStartRequest(ByteBuffer(string: text)) }
        #expect(may("GET / HTTP/1.1\r\n"))
        #expect(may("PO"))
        #expect(may("\r\nGET /"))
        #expect(may("M-SEARCH * HTTP/1.1"))
        #expect(!may("GARBAGE\r\n"))
        #expect(!may(" GET /"))
        #expect(!may("\u{16}\u{03}\u{01}"))
        #expect(!may("{\"a\":1}"))
    }

    @Test("slowloris: a head that trickles in gets 408 and a close once the header timeout has passed")
    func slowloris() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            let reading = await onThread { () -> LoopbackConnection.Reading in
                socket.send("GET /health HTTP/1.1\r\nHost: x\r\n")
                // A header line every 0.3 s until the server answers; what the socket holds
                // after the answer is its close.
                for line in 0..<40 {
                    let answer = socket.readResponse(limit: .milliseconds(300))
                    if !answer.bytes.isEmpty || answer.closed {
                        var rest = socket.readUntilClosed(limit: .seconds(5))
                        rest.bytes = answer.bytes + rest.bytes
                        return rest
                    }
                    guard socket.send("X-Line-\(line): a\r\n") else { break }
                }
                return socket.readUntilClosed(limit: .seconds(5))
            }
            #expect(reading.statusLine == "HTTP/1.1 408 Request Timeout", "\(reading.text)")
            #expect(reading.text.contains(#""error":"request_timeout""#))
            #expect(reading.text.lowercased().contains("connection: close"))
            expectClosedAfter(reading, .seconds(1), "slowloris")
            #expect(try await hookCall(port) == "HTTP/1.1 200 OK")
        }
    }

    @Test("a malformed request head gets 400 with a JSON reason and a close")
    func malformed() async throws {
        try await withServer { port in
            for garbage in ["GARBAGE\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET /health HTTP/1.1\r\nBad Header\r\n\r\n"] {
                let socket = try LoopbackConnection(port: port)
                socket.send(garbage)
                let reading = await onThread { socket.readUntilClosed(limit: .seconds(5)) }
                #expect(
                    reading.statusLine == "HTTP/1.1 400 Bad Request", "\(garbage.debugDescription): \(reading.text)")
                #expect(reading.text.contains(#""error":"malformed_request""#))
                #expect(reading.text.lowercased().contains("connection: close"))
                #expect(reading.closed && reading.elapsed < Self.slack, "closed at once")
            }
            #expect(try await hookCall(port) == "HTTP/1.1 200 OK")
        }
    }

    @Test("a 200 KB header line, and 20,000 header lines, get 431 and a close")
    func oversizeHeads() async throws {
        try await withServer { port in
            let long = "GET /health HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "a", count: 200_000))\r\n\r\n"
            let many =
                "GET /health HTTP/1.1\r\nHost: x\r\n"
                + (0..<20_000).map { "X-H\($0): v\r\n" }.joined() + "\r\n"
            for (name, request) in [("200 KB line", long), ("20,000 lines", many)] {
                let socket = try LoopbackConnection(port: port)
                let reading = await onThread { () -> LoopbackConnection.Reading in
                    socket.send(request)
                    return socket.readUntilClosed(limit: .seconds(10))
                }
                #expect(
                    reading.statusLine == "HTTP/1.1 431 Request Header Fields Too Large",
                    "\(name): \(reading.statusLine)")
                #expect(reading.text.contains(#""error":"header_too_large""#))
                #expect(reading.closed && reading.elapsed < Self.slack, "\(name): closed at once (\(reading.elapsed))")
            }
            #expect(try await hookCall(port) == "HTTP/1.1 200 OK")
        }
    }

    @Test("a body that stops arriving gets 408 once the body timeout has passed")
    func stalledBody() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            socket.send(
                "POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            let reading = await onThread { socket.readUntilClosed(limit: .seconds(10)) }
            #expect(reading.statusLine == "HTTP/1.1 408 Request Timeout", "\(reading.text)")
            #expect(reading.text.contains("made no progress"))
            expectClosedAfter(reading, .seconds(1), "stalled body")
        }
    }

    @Test("an idle keep-alive connection closes after the idle timeout; requests before it are answered")
    func idleKeepAlive() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            // One thread sends, reads the answers and waits for the close: both instants of the
            // idle time are taken there.
            let (answers, reading) = await onThread {
                () -> ([LoopbackConnection.Reading], LoopbackConnection.Reading) in
                let answers = (0..<3).map { _ in
                    socket.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    return socket.readResponse(limit: .seconds(5))
                }
                return (answers, socket.readUntilClosed(limit: .seconds(10)))
            }
            for answer in answers {
                #expect(answer.statusLine == "HTTP/1.1 200 OK")
                #expect(!answer.text.lowercased().contains("connection: close"))
            }
            #expect(reading.closed && reading.bytes.isEmpty, "closed without a word")
            let idle = reading.elapsed - answers[2].elapsed
            #expect(idle >= .seconds(2) - .milliseconds(100) && idle < .seconds(2) + Self.slack, "after \(idle)")
        }
    }

    @Test("a keep-alive connection asked within each idle timeout stays open; its close counts from the last answer")
    func busyKeepAlive() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            // Five requests 1.5 s apart (under the 2 s idle timeout): 6 s, three idle timeouts and
            // more header and body timeouts, each timer moved while an earlier one is armed.
            let (answers, reading) = await onThread {
                () -> ([LoopbackConnection.Reading], LoopbackConnection.Reading) in
                var answers: [LoopbackConnection.Reading] = []
                for index in 0..<5 {
                    if index > 0 { Thread.sleep(forTimeInterval: 1.5) }
                    socket.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    answers.append(socket.readResponse(limit: .seconds(5)))
                }
                return (answers, socket.readUntilClosed(limit: .seconds(10)))
            }
            for answer in answers {
                #expect(answer.statusLine == "HTTP/1.1 200 OK", "\(answer.text)")
                #expect(!answer.closed, "open at \(answer.elapsed)")
            }
            #expect(reading.closed && reading.bytes.isEmpty, "closed without a word")
            let idle = reading.elapsed - answers[4].elapsed
            #expect(idle >= .seconds(2) - .milliseconds(100) && idle < .seconds(2) + Self.slack, "after \(idle)")
        }
    }

    @Test("a body that keeps arriving, a piece every 0.4 s for 2.8 s, is read whole past the 1 s body timeout")
    func slowButSteadyBody() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            let json = #"{"Details":{"Parameters":{"storeId":"shibuya-trattoria"}}}"#
            let body = json + String(repeating: " ", count: 7 * 10 - json.utf8.count)
            let pieces = stride(from: 0, to: 70, by: 10).map { offset in
                String(body.utf8.dropFirst(offset).prefix(10))!
            }
            let reading = await onThread { () -> LoopbackConnection.Reading in
                socket.send(
                    "POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 70\r\n\r\n")
                for piece in pieces {
                    Thread.sleep(forTimeInterval: 0.4)
                    socket.send(piece)
                }
                return socket.readResponse(limit: .seconds(5))
            }
            #expect(reading.statusLine == "HTTP/1.1 200 OK", "\(reading.text)")
            #expect(reading.elapsed >= .milliseconds(2_800), "answered after the last piece (\(reading.elapsed))")
        }
    }

    @Test("an error answered before the body was read closes the connection instead of reading on")
    func earlyErrorCloses() async throws {
        try await withServer { port in
            let socket = try LoopbackConnection(port: port)
            socket.send(
                "POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-token-0123456789\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{\"a\":")
            let reading = await onThread { socket.readUntilClosed(limit: .seconds(10)) }
            #expect(reading.statusLine == "HTTP/1.1 401 Unauthorized", "\(reading.text)")
            #expect(reading.text.lowercased().contains("connection: close"))
            #expect(reading.closed && reading.elapsed < Self.slack, "closed at once (\(reading.elapsed))")
        }
    }

    @Test("over the cap: health and readiness still answer on the reserve, everything else gets 503, beyond it a close")
    func connectionCap() async throws {
        let limits = HTTPLimits(
            headerTimeout: .seconds(8), bodyTimeout: .seconds(8), idleTimeout: .seconds(8), maxConnections: 12,
            reservedConnections: 3)
        try await withServer(limits) { port in
            // A caller's keep-alive connection from before the flood keeps working. With the test
            // framework's own client (connected at start) and 10 more, the 12 are taken.
            let caller = try LoopbackConnection(port: port)
            let flood = try (0..<10).map { _ in try LoopbackConnection(port: port) }
            try await Task.sleep(for: .milliseconds(200))
            // One at a time: connections land on different event loops, and which one counts
            // first decides which is over the reserve.
            var reserve: [LoopbackConnection] = []
            for _ in 0..<3 {
                reserve.append(try LoopbackConnection(port: port))
                try await Task.sleep(for: .milliseconds(100))
            }
            let beyond = try LoopbackConnection(port: port)
            let refused = await onThread { beyond.readUntilClosed(limit: .seconds(3)) }
            #expect(refused.closed && refused.bytes.isEmpty, "beyond the reserve: closed at once")

            reserve[0].send("GET /ready HTTP/1.1\r\nHost: x\r\n\r\n")
            let ready = await onThread { [reserve] in reserve[0].readUntilClosed(limit: .seconds(5)) }
            #expect(ready.statusLine == "HTTP/1.1 200 OK", "\(ready.text)")
            #expect(ready.text.lowercased().contains("connection: close") && ready.closed)
            reserve[1].send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let health = await onThread { [reserve] in reserve[1].readUntilClosed(limit: .seconds(5)) }
            #expect(health.statusLine == "HTTP/1.1 200 OK", "\(health.text)")
            reserve[2].send("GET /v1/calendar/2026 HTTP/1.1\r\nHost: x\r\n\r\n")
            let limited = await onThread { [reserve] in reserve[2].readUntilClosed(limit: .seconds(5)) }
            #expect(limited.statusLine == "HTTP/1.1 503 Service Unavailable", "\(limited.text)")
            #expect(limited.text.contains(#""error":"connection_limit""#) && limited.closed)

            let body = #"{"Details":{"Parameters":{"storeId":"shibuya-trattoria"}}}"#
            caller.send(
                "POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(await onThread { caller.readResponse(limit: .seconds(5)) }.statusLine == "HTTP/1.1 200 OK")
            _ = flood
        }
    }

    @Test("a client that stops reading a response is closed after the write-stall timeout")
    func stalledReader() async throws {
        let limits = HTTPLimits(
            headerTimeout: .seconds(5), bodyTimeout: .seconds(5), idleTimeout: .seconds(5),
            writeStallTimeout: .seconds(1), maxConnections: 50)
        try await withServer(limits) { port in
            let socket = try LoopbackConnection(port: port)
            socket.send("GET /download HTTP/1.1\r\nHost: x\r\n\r\n")
            // Read nothing for a while: the socket buffers fill and the server's channel turns
            // unwritable; a second later the server closes it.
            try await Task.sleep(for: .seconds(4))
            let reading = await onThread { socket.readUntilClosed(limit: .seconds(20)) }
            #expect(reading.closed, "closed")
            #expect(reading.bytes.count < 256 << 20, "before the whole response: \(reading.bytes.count) bytes")
            #expect(try await hookCall(port) == "HTTP/1.1 200 OK")
        }
    }

}

/// A value handed out of a `@Sendable` closure.
final class ResultBox<T: Sendable>: Sendable {
    private let box = NIOLockedValueBox<T?>(nil)
    func set(_ value: T) { box.withLockedValue { $0 = value } }
    func get() -> T? { box.withLockedValue { $0 } }
}
