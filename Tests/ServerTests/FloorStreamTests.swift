import ContactCenter
import Foundation
import HummingbirdTesting
import Logging
import OperatingHours
import SwitchboardTesting
import Testing

@testable import Server

@Suite("Floor streams over a live server: WebSocket and Server-Sent Events")
struct FloorStreamTests {
    typealias E = FloorTestEvents

    /// Runs `body` against the production application on a free port, the publisher beside it.
    func withFloorServer(
        tokens: [String] = [],
        queue: Int = 256,
        maxSubscribers: Int = 1_000,
        limits: HTTPLimits = HTTPLimits(),
        _ body: @escaping @Sendable (FloorPublisher, Int, LiveClient) async throws -> Void
    ) async throws {
        let publisher = FloorPublisher(
            configuration: FloorPublisherConfiguration(
                subscriberQueueCapacity: queue, coalescingInterval: .zero, maxSubscribers: maxSubscribers),
            now: { E.at(60).date })
        var logger = Logger(label: "floor-test")
        logger.logLevel = .warning
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await publisher.run() }
            try await withLiveServer(
                configuration: ServerConfiguration(host: "127.0.0.1", port: 0, limits: limits),
                dependencies: ServerDependencies(
                    readinessChecks: [FloorReadinessCheck(publisher: publisher)],
                    routeProviders: [FloorRoutes(publisher: publisher, tokens: AccessTokens(tokens))]),
                logger: logger
            ) { client in
                try await body(publisher, client.port!, client)
            }
            group.cancelAll()
        }
    }

    func webSocket(_ port: Int, _ query: String = "") async throws -> RawStreamClient {
        let client = try RawStreamClient(port: port, path: "/v1/floor/stream\(query)", webSocket: true)
        try await client.readHead()
        #expect(client.status == 101)
        return client
    }

    func nextMessage(_ client: RawStreamClient) async throws -> DecodedFloorMessage {
        while true {
            let message = try DecodedFloorMessage(json: try await client.nextWebSocketText())
            if message.type != "heartbeat" { return message }
        }
    }

    @Test("WebSocket: a snapshot, then consecutive deltas that fold into the server's view")
    func webSocketSnapshotThenDeltas() async throws {
        try await withFloorServer { publisher, port, _ in
            await publisher.ingest([E.agent(1, at: 1)])
            let client = try await webSocket(port)
            var model = FloorClientModel()
            let snapshot = try await nextMessage(client)
            #expect(snapshot.type == "snapshot")
            #expect(snapshot.seq == 1)
            #expect(snapshot.epoch == publisher.epoch)
            try model.apply(snapshot)
            await publisher.ingest([E.agent(2, at: 2)])
            await publisher.ingest([E.contact("c1", .queued, at: 3)])
            await publisher.ingest([E.agent(1, status: "Lunch", type: .custom, at: 4)])
            for _ in 0..<3 { try model.apply(try await nextMessage(client)) }
            #expect(model.deltas == [2, 3, 4])
            #expect(model.view == (await publisher.currentView().view))
            #expect(model.view?.summary.contactsWaiting == 1)
        }
    }

    @Test("WebSocket: reconnecting with since gets exactly the missed deltas")
    func webSocketResume() async throws {
        try await withFloorServer { publisher, port, _ in
            var model = FloorClientModel()
            do {
                let client = try await webSocket(port)
                try model.apply(try await nextMessage(client))
                await publisher.ingest([E.agent(1, at: 1)])
                try model.apply(try await nextMessage(client))
            }
            // Disconnected; the floor moves on.
            for index in 2...4 { await publisher.ingest([E.agent(index, at: Double(index))]) }
            let client = try await webSocket(port, "?since=\(publisher.epoch):\(model.seq!)")
            var resumed: [DecodedFloorMessage] = []
            for _ in 0..<3 { resumed.append(try await nextMessage(client)) }
            #expect(resumed.map(\.type) == ["delta", "delta", "delta"])
            #expect(resumed.map(\.seq) == [2, 3, 4])
            for message in resumed { try model.apply(message) }
            #expect(model.view == (await publisher.currentView().view))
            // Nothing else is pending: the next message is the next change.
            await publisher.ingest([E.agent(5, at: 5)])
            #expect(try await nextMessage(client).seq == 5)
        }
    }

    @Test("SSE: a snapshot, then deltas with EPOCH:SEQ ids; Last-Event-ID resumes exactly")
    func serverSentEvents() async throws {
        try await withFloorServer { publisher, port, _ in
            let client = try RawStreamClient(port: port, path: "/v1/floor/events", webSocket: false)
            try await client.readHead()
            #expect(client.status == 200)
            #expect(client.headers["content-type"]?.hasPrefix("text/event-stream") == true)
            var model = FloorClientModel()
            let first = try await client.nextServerSentData()
            #expect(first.id == "\(publisher.epoch):0")
            try model.apply(try DecodedFloorMessage(json: first.data!))
            await publisher.ingest([E.agent(1, at: 1)])
            await publisher.ingest([E.agent(2, at: 2)])
            for _ in 0..<2 {
                try model.apply(try DecodedFloorMessage(json: try await client.nextServerSentData().data!))
            }
            #expect(model.deltas == [1, 2])

            await publisher.ingest([E.agent(3, at: 3)])
            await publisher.ingest([E.agent(4, at: 4)])
            let resumed = try RawStreamClient(
                port: port, path: "/v1/floor/events", headers: ["Last-Event-ID": "\(publisher.epoch):2"],
                webSocket: false)
            try await resumed.readHead()
            let missed = [try await resumed.nextServerSentData(), try await resumed.nextServerSentData()]
            #expect(missed.map(\.id) == ["\(publisher.epoch):3", "\(publisher.epoch):4"])
            for event in missed { try model.apply(try DecodedFloorMessage(json: event.data!)) }
            #expect(model.view == (await publisher.currentView().view))
        }
    }

    @Test("SSE: an idle stream carries `: ping` heartbeats")
    func serverSentHeartbeat() async throws {
        let publisher = FloorPublisher(
            configuration: FloorPublisherConfiguration(heartbeatInterval: .milliseconds(100)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await publisher.run() }
            try await withLiveServer(
                configuration: ServerConfiguration(port: 0),
                dependencies: ServerDependencies(
                    routeProviders: [FloorRoutes(publisher: publisher, tokens: AccessTokens([]))]),
                logger: Logger(label: "floor-test")
            ) { client in
                let stream = try RawStreamClient(port: client.port!, path: "/v1/floor/events", webSocket: false)
                try await stream.readHead()
                _ = try await stream.nextServerSentData()
                let ping = try await stream.nextServerSentEvent(timeout: .seconds(5))
                #expect(ping.comment == "ping")
            }
            group.cancelAll()
        }
    }

    @Test(
        "a WebSocket client that stops reading gets a fresh snapshot later; another client gets every delta meanwhile")
    func slowClientIsResnapshotted() async throws {
        // The slow client neither reads nor answers pings for as long as the 1,500 changes take
        // (seconds, or a minute on a loaded machine): the connection's write-stall and ping
        // timeouts, tested below, would end it; here they are out of the way.
        let patient = HTTPLimits(writeStallTimeout: .seconds(3_600), webSocketPingInterval: .seconds(3_600))
        try await withFloorServer(queue: 16, limits: patient) { publisher, port, _ in
            // Agents with long names make each delta big, so kernel buffers fill quickly.
            let wide = String(repeating: "x", count: 4_000)
            let slow = try await webSocket(port)
            let fast = try await webSocket(port)
            var fastModel = FloorClientModel()
            try fastModel.apply(try await nextMessage(fast))
            _ = try await nextMessage(slow)  // its snapshot; then it stops reading
            // The sequence number of the snapshot (a tick may have published before the clients came).
            let base = fastModel.seq ?? 0

            // Each change is published only after the fast client received the previous one, while
            // the slow client reads nothing: if the slow client's full socket held up the
            // publisher, the fast client would stop receiving (nextMessage times out). No timing
            // threshold: the order of events is the proof.
            let changes = 1_500
            for index in 1...changes {
                await publisher.ingest([
                    E.agent(index % 50, status: "\(wide)-\(index)", type: .custom, at: Double(index))
                ])
                try fastModel.apply(try await nextMessage(fast))
            }
            #expect(fastModel.snapshots == 1)
            #expect(fastModel.deltas == Array((base + 1)...(base + UInt64(changes))))

            // The slow client reads again: after what the socket buffers held, a snapshot
            // arrives, and from it the view is current.
            var slowModel = FloorClientModel()
            var sawResnapshot = false
            while slowModel.seq != base + UInt64(changes) {
                let message = try await nextMessage(slow)
                if message.type == "snapshot" {
                    sawResnapshot = true
                    slowModel = FloorClientModel()
                }
                if slowModel.view != nil || message.type == "snapshot" { try slowModel.apply(message) }
            }
            #expect(sawResnapshot)
            #expect(slowModel.view == (await publisher.currentView().view))
        }
    }

    @Test("a WebSocket peer that answers no ping is closed with 1001 after two ping intervals; one that answers stays")
    func unansweredPingsClose() async throws {
        let limits = HTTPLimits(webSocketPingInterval: .seconds(1))
        try await withFloorServer(limits: limits) { _, port, _ in
            // The answering peer runs on a thread of its own, so its pongs never wait for this
            // task to be scheduled. The server closes a peer whose last ping is unanswered when the
            // next one is due: three pings answered on a connection still open prove it stays,
            // however late the server's ping task runs (no time window).
            let answering = try LoopbackConnection(port: port)
            answering.send(
                "GET /v1/floor/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let pongs = startOnThread { answering.answerPings(3, limit: .seconds(60)) }

            // Taken before the connection opens: the server's ping interval starts at its upgrade,
            // which no client-side instant after the handshake can bound from below.
            let opened = ContinuousClock.now
            let silent = try await webSocket(port)
            silent.answersPings = false
            _ = try await nextMessage(silent)
            // The silent peer reads on until the server's close frame; the connection must end
            // (the bound is liveness, not timing: it holds on any machine that runs at all).
            await #expect(throws: RawStreamClient.Failure.closed) {
                while ContinuousClock.now - opened < .seconds(30) { _ = try await silent.nextWebSocketText() }
            }
            #expect(silent.closeCode == 1001, "going away: \(String(describing: silent.closeCode))")
            #expect(ContinuousClock.now - opened >= .seconds(2) - .milliseconds(50), "not before two intervals")

            let answered = await pongs.value
            #expect(answered.pings == 3 && !answered.closed, "\(answered)")
        }
    }

    @Test("a WebSocket client that stops reading is closed after the write-stall timeout and unsubscribed")
    func stalledWebSocketCloses() async throws {
        let limits = HTTPLimits(writeStallTimeout: .milliseconds(500), webSocketPingInterval: .seconds(3_600))
        try await withFloorServer(queue: 16, limits: limits) { publisher, port, _ in
            let wide = String(repeating: "x", count: 4_000)
            let stalled = try await webSocket(port)
            _ = try await nextMessage(stalled)
            // It reads nothing while deltas fill the socket buffers; the server's channel turns
            // unwritable and is closed half a second later.
            for index in 1...3_000 {
                await publisher.ingest([
                    E.agent(index % 50, status: "\(wide)-\(index)", type: .custom, at: Double(index))
                ])
                if index % 100 == 0 { await Task.yield() }
            }
            // What the buffers held is read; then the end of the connection, not a resnapshot
            // and the deltas after it.
            var messages = 0
            await #expect(throws: RawStreamClient.Failure.closed) {
                while true {
                    _ = try await stalled.nextWebSocketText(timeout: .seconds(30))
                    messages += 1
                }
            }
            #expect(messages < 3_000, "closed before every delta reached it: \(messages)")
            var unsubscribed = false
            for _ in 0..<300 where !unsubscribed {
                unsubscribed = await publisher.subscriberCount == 0
                if !unsubscribed { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(unsubscribed, "the publisher let go of the closed subscriber")
        }
    }

    @Test("with tokens configured: 401 JSON without one, also for a WebSocket upgrade; Bearer header or ?token= let in")
    func authentication() async throws {
        try await withFloorServer(tokens: ["s3cret"]) { _, port, client in
            try await client.execute(uri: "/v1/floor", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains(#""error":"unauthorized""#))
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
            try await client.execute(uri: "/v1/floor", method: .get, headers: [.authorization: "Bearer wrong"]) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/floor", method: .get, headers: [.authorization: "Bearer s3cret"]) {
                #expect($0.status == .ok)
                #expect(String(buffer: $0.body).contains(#""type":"snapshot""#))
            }
            try await client.execute(uri: "/v1/floor/today?token=s3cret", method: .get) {
                #expect($0.status == .ok)
                #expect(String(buffer: $0.body).contains(#""dayType""#))
            }
            try await client.execute(uri: "/console", method: .get) { #expect($0.status == .ok) }

            // A WebSocket upgrade is refused before the handshake with the same 401 and JSON reason.
            for (query, headers) in [("", [:]), ("?token=wrong", [:]), ("", ["Authorization": "Bearer wrong"])] {
                let refused = try RawStreamClient(
                    port: port, path: "/v1/floor/stream\(query)", headers: headers, webSocket: true)
                try await refused.readHead()
                #expect(refused.status == 401, "query \(query), headers \(headers)")
                #expect(refused.headers["content-type"]?.hasPrefix("application/json") == true)
                #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
                #expect(refused.headers["upgrade"] == nil)
                let body = try await refused.readBody()
                #expect(body.contains(#""error":"unauthorized""#), "\(body)")
                #expect(body.contains("console token"), "\(body)")
            }
            // An upgrade the router refuses says why, as the router would without the upgrade.
            let elsewhere = try RawStreamClient(port: port, path: "/nowhere", webSocket: true)
            try await elsewhere.readHead()
            #expect(elsewhere.status == 404)
            #expect(try await elsewhere.readBody().contains(#""error":"not_found""#))
            // Only a connection's first request is an upgrade attempt: on a keep-alive connection
            // later `Upgrade` requests are ordinary ones, answered by the router as they are, and
            // the connection keeps working. (With `Connection: Upgrade` too, NIO's parser stops
            // reading the connection after that request, so it would be the last one.)
            let keepAlive = try RawStreamClient(port: port, path: "/v1/floor/today?token=s3cret", webSocket: false)
            try await keepAlive.readHead()
            #expect(keepAlive.status == 200)
            _ = try await keepAlive.readBody()
            for round in 0..<5 {
                try keepAlive.sendRequest([
                    "GET /v1/floor/stream HTTP/1.1", "Host: 127.0.0.1", "Upgrade: WebSocket",
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
                ])
                try await keepAlive.readHead()
                #expect(keepAlive.status == 401, "round \(round)")
                #expect(try await keepAlive.readBody().contains(#""error":"unauthorized""#))
            }
            try keepAlive.sendRequest(["GET /v1/floor/today?token=s3cret HTTP/1.1", "Host: 127.0.0.1"])
            try await keepAlive.readHead()
            #expect(keepAlive.status == 200)
            #expect(try await keepAlive.readBody().contains(#""dayType""#))
            try await client.execute(uri: "/v1/floor/stream", method: .get) { #expect($0.status == .unauthorized) }
            let sse = try RawStreamClient(port: port, path: "/v1/floor/events", webSocket: false)
            try await sse.readHead()
            #expect(sse.status == 401)
            let byHeader = try RawStreamClient(
                port: port, path: "/v1/floor/stream", headers: ["Authorization": "Bearer s3cret"], webSocket: true)
            try await byHeader.readHead()
            #expect(byHeader.status == 101)
            #expect(try await nextMessage(byHeader).type == "snapshot")
            let admitted = try await webSocket(port, "?token=s3cret")
            #expect(try await nextMessage(admitted).type == "snapshot")
        }
    }

    @Test("/ready reports the floor; /v1/floor/today names the day type")
    func readinessAndToday() async throws {
        try await withFloorServer { _, _, client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""floor""#))
            }
        }
        let newYear = FloorToday(
            at: UTCTimestamp(iso8601: "2026-01-01T03:00:00Z")!.date, timeZone: TimeZone(identifier: "Asia/Tokyo")!,
            calendar: JapaneseHolidayCalendar.standard)
        #expect(newYear.dayType == "holiday")
        #expect(newYear.holiday?.nameEn.isEmpty == false)
        let newYearsEve = FloorToday(
            at: UTCTimestamp(iso8601: "2025-12-31T03:00:00Z")!.date, timeZone: TimeZone(identifier: "Asia/Tokyo")!,
            calendar: JapaneseHolidayCalendar.standard)
        #expect(newYearsEve.dayType == "pre_holiday")
    }

    @Test(
        "beyond the subscriber cap, SSE and WebSocket streams get 503 with a JSON reason; a slot freed is taken again")
    func subscriberCap() async throws {
        try await withFloorServer(maxSubscribers: 1) { publisher, port, _ in
            let first = try RawStreamClient(port: port, path: "/v1/floor/events", webSocket: false)
            try await first.readHead()
            #expect(first.status == 200)
            _ = try await first.nextServerSentData()
            for webSocket in [false, true] {
                let refused = try RawStreamClient(
                    port: port, path: webSocket ? "/v1/floor/stream" : "/v1/floor/events", webSocket: webSocket)
                try await refused.readHead()
                #expect(refused.status == 503, "webSocket: \(webSocket)")
                #expect(try await refused.readBody().contains(#""error":"too_many_subscribers""#))
            }
            first.shutdown()
            // The publisher notices the closed client at its next write (a heartbeat or a delta).
            for attempt in 0..<50 {
                await publisher.ingest([E.agent(attempt + 10, at: Double(attempt + 10))])
                if await publisher.hasRoom { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let again = try RawStreamClient(port: port, path: "/v1/floor/stream", webSocket: true)
            try await again.readHead()
            #expect(again.status == 101)
        }
    }

}
