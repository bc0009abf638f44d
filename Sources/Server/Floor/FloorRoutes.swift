import Foundation
import Hummingbird
import HummingbirdWebSocket
import OperatingHours
import ServiceLifecycle

/// The live-status feature: the floor as JSON, its WebSocket and SSE streams, and the console.
///
/// - `GET /` redirects to `/console`;
/// - `GET /console` (and `/console/console.js`, `/console/console.css`): the operator console,
///   open (it holds no data; it reads the streams with the token from its own URL).
/// - `GET /v1/floor`: the current view as a snapshot message (`seq`, `epoch`, `view`).
/// - `GET /v1/floor/today`: today's date and day type (holiday, pre-holiday…).
/// - WebSocket `/v1/floor/stream` and SSE `GET /v1/floor/events`: a snapshot, then consecutive
///   deltas and heartbeats; `?since=[EPOCH:]SEQ` (SSE also `Last-Event-ID`) resumes.
///
/// Everything under `/v1/floor` needs a token when tokens are configured.
public struct FloorRoutes: RouteProvider {
    let publisher: FloorPublisher
    let tokens: AccessTokens
    let calendar: any HolidayCalendar
    private let metrics = FloorMetrics()

    /// Creates the routes.
    ///
    /// - Parameters:
    ///   - publisher: The floor; run it as a service of the same process.
    ///   - tokens: Who may read the floor; empty leaves it open (development only).
    ///   - calendar: The holidays behind `/v1/floor/today`.
    public init(
        publisher: FloorPublisher,
        tokens: AccessTokens,
        calendar: any HolidayCalendar = JapaneseHolidayCalendar.standard
    ) {
        self.publisher = publisher
        self.tokens = tokens
        self.calendar = calendar
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        // The documented address of a deployment is its root: send people to the console.
        router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/console"]) }
        router.get("/console") { _, _ in try ConsoleAssets.response(for: "console.html") }
        router.get("/console/{asset}") { _, context in
            try ConsoleAssets.response(for: context.parameters.require("asset"))
        }

        let floor = router.group("/v1/floor").add(middleware: FloorTokenMiddleware(tokens: tokens))
        floor.get { _, _ -> Response in
            let snapshot = await publisher.snapshot()
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: snapshot.json))
            )
        }
        floor.get("today") { [calendar, publisher] _, _ -> Response in
            JSONResponse.make(
                FloorToday(at: Date(), timeZone: publisher.configuration.floor.timeZone, calendar: calendar))
        }
        floor.get("events") { request, _ -> Response in
            let since =
                request.uri.queryParameters.get("since").flatMap(FloorCursor.init)
                ?? request.headers[values: HTTPFields.Element.Name("Last-Event-ID")!].first.flatMap(FloorCursor.init)
            guard let subscription = await publisher.subscribeIfRoom(since: since) else { throw Self.full(publisher) }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                    HTTPFields.Element.Name("X-Accel-Buffering")!: "no",
                ],
                body: ResponseBody { [publisher, metrics] writer in
                    await Self.streamEvents(from: publisher, subscription: subscription, metrics: metrics) { text in
                        try await writer.write(ByteBuffer(string: text))
                    }
                    try? await writer.finish(nil)
                }
            )
        }
        let roomForAnother: @Sendable (Request, SwitchboardRequestContext) async throws -> RouterShouldUpgrade = {
            [publisher] _, _ in
            guard await publisher.hasRoom else { throw Self.full(publisher) }
            return .upgrade([:])
        }
        floor.ws(
            "stream", shouldUpgrade: roomForAnother,
            onUpgrade: { [publisher, metrics] inbound, outbound, context in
                let since = context.request.uri.queryParameters.get("since").flatMap(FloorCursor.init)
                guard let subscription = await publisher.subscribeIfRoom(since: since) else { return }
                try await cancelWhenGracefulShutdown {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        // Reading is what notices the client's close frame; clients send nothing else.
                        group.addTask { for try await _ in inbound {} }
                        group.addTask {
                            await Self.streamMessages(from: publisher, subscription: subscription) { message in
                                try await outbound.writeTextMessage(message.json)
                                metrics.webSocketMessages.increment()
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
            })
    }

    /// The answer to a stream request beyond ``FloorPublisherConfiguration/maxSubscribers``.
    static func full(_ publisher: FloorPublisher) -> APIError {
        .unavailable(
            code: "too_many_subscribers",
            "the floor already has its maximum of \(publisher.configuration.maxSubscribers) stream clients; retry later"
        )
    }

    /// Writes every message of `subscription` until it or a write ends, then unsubscribes.
    ///
    /// Graceful shutdown ends the subscription, so the stream closes cleanly instead of holding
    /// the server open. A client that stops reading is closed by the connection's write-stall
    /// timeout (``HTTPLimits/writeStallTimeout``), which fails the pending write.
    static func streamMessages(
        from publisher: FloorPublisher,
        subscription: FloorSubscription,
        write: (FloorMessage) async throws -> Void
    ) async {
        await withGracefulShutdownHandler {
            do {
                while let next = await subscription.next() {
                    switch next {
                    case .messages(let messages):
                        for message in messages { try await write(message) }
                    case .resnapshot:
                        await publisher.resnapshot(subscription)
                    }
                }
            } catch {
                // The client went away (a failed write); nothing to tell it.
            }
        } onGracefulShutdown: {
            subscription.finish()
        }
        await publisher.unsubscribe(subscription)
    }

    /// ``streamMessages(from:subscription:write:)`` in Server-Sent Events framing: each message
    /// is one event whose id is `EPOCH:SEQ`; heartbeats are `: ping` comments.
    static func streamEvents(
        from publisher: FloorPublisher,
        subscription: FloorSubscription,
        metrics: FloorMetrics,
        write: (String) async throws -> Void
    ) async {
        do {
            try await write("retry: 2000\n\n")
        } catch {
            await publisher.unsubscribe(subscription)
            return
        }
        await streamMessages(from: publisher, subscription: subscription) { message in
            switch message.kind {
            case .heartbeat:
                try await write(": ping\n\n")
            case .snapshot, .delta:
                try await write("id: \(message.eventID)\ndata: \(message.json)\n\n")
            }
            metrics.serverSentMessages.increment()
        }
    }
}
