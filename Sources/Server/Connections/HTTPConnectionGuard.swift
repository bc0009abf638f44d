import NIOCore
import NIOHTTP1
import Primitives

/// One HTTP connection's phases and timers: what ``HTTPInboundActivityHandler`` (raw bytes, first
/// in the pipeline) and ``HTTPRequestGuardHandler`` (request parts, right after NIO's decoder)
/// share.
///
/// - A new connection must deliver a request head within the header timeout; a keep-alive
///   connection waits at most the idle timeout for its next request, and once its first byte
///   arrives the head must follow within the header timeout.
/// - A body must make progress (any bytes) within the body timeout.
/// - While a request is answered (streams included) no timer runs: the route owns that time.
/// - A response to a request whose body was not read whole ends the connection (`Connection:
///   close`) instead of reading an unbounded body.
///
/// Both handlers run on the connection's event loop, which is the only place this object is
/// touched.
final class HTTPConnectionGuard {
    enum Phase: Equatable {
        /// Waiting for a request head; `first` for a new connection, `bytesSeen` once part of a
        /// head has arrived.
        case awaitingRequest(first: Bool, bytesSeen: Bool)
        /// A head was decoded and its body is arriving.
        case readingBody
        /// The request was read whole and is being answered.
        case responding
        /// A WebSocket: the WebSocket handler's pings look after it.
        case upgraded
        /// The server is closing it.
        case closing
    }

    /// Paths served on a connection over the cap (probes and scrapes).
    static func isServedOverCap(_ uri: String) -> Bool {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        return path == "/health" || path == "/metrics" || path == "/ready" || path.hasPrefix("/ready/")
    }

    let limits: HTTPLimits
    let metrics: HTTPConnectionMetrics
    private(set) var phase = Phase.awaitingRequest(first: true, bytesSeen: false)
    /// Whether the connection is beyond ``HTTPLimits/maxConnections`` (health and metrics only).
    private(set) var overCap = false
    /// Whether a response head was written for the request being answered.
    private var responseStarted = false
    /// Whether the request being answered has been read whole.
    private var requestEnded = true
    /// Whether the connection closes once the current response is written.
    private var closeAfterResponse = false
    private var state: HTTPConnectionMetrics.State?
    private var counted = false
    /// When the current phase's timeout expires; `nil` while no timeout runs.
    private var deadline: NIODeadline?
    /// The one armed event-loop timer and when it fires: moving the deadline later leaves it
    /// armed (it re-arms itself for the deadline when it fires early), so a keep-alive request
    /// costs no timer operation.
    private var timer: Scheduled<Void>?
    private var timerFires = NIODeadline.distantFuture
    private var stallTimer: Scheduled<Void>?
    /// The request guard's context: where answers of the guard's own are written (through NIO's
    /// response encoder).
    var requestContext: ChannelHandlerContext?
    /// The connection, from its activation until it ends: a timer closes it even before the
    /// request guard joined the pipeline.
    private var channel: (any Channel)?
    /// The timers' jitter: a connection draws from its own generator, seeded once, instead of
    /// asking the kernel for random bytes at every timer.
    private var jitter: SplitMix64

    init(limits: HTTPLimits, metrics: HTTPConnectionMetrics) {
        self.limits = limits
        self.metrics = metrics
        jitter = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
    }

    // MARK: Events from the raw-bytes handler

    /// The connection is open: counts it, closes it at once beyond the cap and its reserve, and
    /// starts the header timer.
    func activated(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        channel = context.channel
        let open = metrics.opened()
        move(to: .idle)
        if open > limits.maxConnections + limits.reservedConnections {
            metrics.closed(.cap)
            close(context.channel)
            return
        }
        overCap = open > limits.maxConnections
        schedule(overCap ? min(limits.headerTimeout, .seconds(2)) : limits.headerTimeout, on: context.eventLoop)
    }

    /// Bytes arrived: the first of a keep-alive connection's next head starts its header timer; a
    /// body's bytes are progress.
    func bytesArrived(_ context: ChannelHandlerContext) {
        switch phase {
        case .awaitingRequest(let first, false):
            phase = .awaitingRequest(first: first, bytesSeen: true)
            move(to: .reading)
            if !first { schedule(limits.headerTimeout, on: context.eventLoop) }
        case .readingBody:
            schedule(limits.bodyTimeout, on: context.eventLoop)
        default:
            break
        }
    }

    /// The connection became unwritable (its client is not reading) or writable again: an
    /// unwritable connection closes after the write-stall timeout.
    func writabilityChanged(_ context: ChannelHandlerContext) {
        stallTimer?.cancel()
        stallTimer = nil
        guard !context.channel.isWritable else { return }
        let channel = context.channel
        stallTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.writeStallTimeout)) {
            [self] in
            stallTimer = nil
            guard !channel.isWritable, phase != .closing else { return }
            metrics.closed(.writeStall)
            close(channel)
        }
    }

    /// The connection is gone.
    func deactivated() {
        channel = nil
        deadline = nil
        timer?.cancel()
        timer = nil
        stallTimer?.cancel()
        stallTimer = nil
        if counted {
            counted = false
            move(to: nil)
            metrics.closedConnection()
        }
        requestContext = nil
    }

    // MARK: Events from the request guard

    /// A request head was decoded. Returns whether it goes on to the application (`false`: the
    /// guard answered it).
    func headReceived(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
        guard phase != .closing else { return false }
        if overCap {
            guard Self.isServedOverCap(head.uri) else {
                metrics.closed(.cap)
                answer(
                    .serviceUnavailable, code: "connection_limit",
                    reason: "the server holds its maximum of \(limits.maxConnections) connections; retry later")
                return false
            }
            closeAfterResponse = true
        }
        phase = .readingBody
        requestEnded = false
        responseStarted = false
        move(to: .reading)
        schedule(limits.bodyTimeout, on: context.eventLoop)
        return true
    }

    /// The request was read whole.
    func requestEndReceived() {
        guard phase == .readingBody else { return }
        requestEnded = true
        phase = .responding
        move(to: .active)
        cancelTimer()
    }

    /// A response head is being written; returns it with `Connection: close` when the
    /// connection ends after it.
    func responseHeadWritten(_ head: HTTPResponseHead) -> HTTPResponseHead {
        if head.status == .switchingProtocols {
            phase = .upgraded
            move(to: .upgraded)
            cancelTimer()
            return head
        }
        guard head.status.code >= 200 else { return head }
        responseStarted = true
        if !requestEnded {
            // Answered before its body was read (an early error): reading on would read a body
            // of any length for nothing.
            closeAfterResponse = true
            if phase == .readingBody { cancelTimer() }
        }
        move(to: .active)
        guard closeAfterResponse else { return head }
        var head = head
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        return head
    }

    /// A response was written whole: the connection closes, or waits for the next request.
    func responseEndWritten(_ context: ChannelHandlerContext) -> Bool {
        guard phase != .upgraded else { return false }
        if closeAfterResponse {
            if !requestEnded { metrics.closed(.unreadBody) }
            phase = .closing
            return true
        }
        phase = .awaitingRequest(first: false, bytesSeen: false)
        responseStarted = false
        move(to: .idle)
        schedule(limits.idleTimeout, on: context.eventLoop)
        return false
    }

    /// NIO's decoder refused the request head.
    func parseFailed(_ error: HTTPParserError) {
        let oversize = error == .headerOverflow
        metrics.closed(oversize ? .oversize : .malformed)
        guard !responseStarted, phase != .closing else {
            phase = .closing
            closeConnection()
            return
        }
        if oversize {
            answer(
                .requestHeaderFieldsTooLarge, code: "header_too_large",
                reason:
                    "the request head exceeds \(limits.maxHeadBytes) bytes or \(limits.maxHeaderLines) header lines")
        } else {
            answer(.badRequest, code: "malformed_request", reason: "the request is not valid HTTP/1.1 (\(error))")
        }
    }

    // MARK: Timers

    /// Starts the phase timer: `delay`, plus up to half as much again at random, so that
    /// connections opened together (a flood) do not time out together: each close and the
    /// attacker's reopen cost the server a few hundred microseconds, and a wave of thousands
    /// within one second takes the cores from the hook. Spread over half the timeout, the wave
    /// costs a fraction of a core. A timeout never fires before its setting.
    ///
    /// Only the deadline moves: the armed event-loop timer stays unless it would fire after the
    /// new deadline (as Netty's idle handler does). Scheduling and cancelling a NIO timer
    /// allocates, and a cancel searches the loop's whole timer heap, which holds a timer per
    /// open connection: per request and per body chunk that was several percent of the hook's
    /// CPU, and more under a connection flood.
    private func schedule(_ delay: Duration, on eventLoop: any EventLoop) {
        let jittered = delay + delay * (0.5 * jitter.unit())
        let deadline = NIODeadline.now() + TimeAmount(jittered)
        self.deadline = deadline
        guard timer == nil || timerFires > deadline else { return }
        arm(at: deadline, on: eventLoop)
    }

    private func arm(at fireTime: NIODeadline, on eventLoop: any EventLoop) {
        timer?.cancel()
        timerFires = fireTime
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: fireTime) { [self] in
            timer = nil
            timerFires = .distantFuture
            guard let deadline else { return }
            if deadline > .now() {
                arm(at: deadline, on: eventLoop)
            } else {
                self.deadline = nil
                expired()
            }
        }
    }

    /// No timeout runs in the current phase. The armed timer, if any, finds no deadline when it
    /// fires and ends there; the connection's end cancels it.
    private func cancelTimer() {
        deadline = nil
    }

    /// The running timer expired in the current phase.
    private func expired() {
        switch phase {
        case .awaitingRequest(let first, let bytesSeen):
            if bytesSeen {
                metrics.closed(.headerTimeout)
                answer(
                    .requestTimeout, code: "request_timeout",
                    reason: "the request head did not arrive within \(limits.headerTimeout)")
            } else {
                metrics.closed(first ? .headerTimeout : .idle)
                phase = .closing
                closeConnection()
            }
        case .readingBody:
            metrics.closed(.bodyTimeout)
            if responseStarted {
                phase = .closing
                closeConnection()
            } else {
                answer(
                    .requestTimeout, code: "request_timeout",
                    reason: "the request body made no progress for \(limits.bodyTimeout)")
            }
        case .responding, .upgraded, .closing:
            break
        }
    }

    // MARK: Answers of the guard's own

    /// Writes `{"error": code, "reason": reason}` with `status` and `Connection: close`, then
    /// closes the connection.
    private func answer(_ status: HTTPResponseStatus, code: String, reason: String) {
        phase = .closing
        cancelTimer()
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.member("error", code)
        json.member("reason", reason)
        json.endObject()
        guard let context = requestContext else {
            // No HTTP pipeline yet (a head still arriving, ``HTTPFirstHeadHandler``): the answer
            // goes out as bytes.
            guard let channel else { return }
            var bytes = channel.allocator.buffer(capacity: 160 + json.bytes.count)
            bytes.writeString(
                "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
                    + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(json.bytes.count)\r\n"
                    + "Connection: close\r\n\r\n")
            bytes.writeBytes(json.bytes)
            channel.writeAndFlush(bytes).assumeIsolated().whenComplete { _ in Self.lingeringClose(channel) }
            return
        }
        let body = context.channel.allocator.buffer(bytes: json.bytes)
        let head = HTTPResponseHead(
            version: .http1_1, status: status,
            headers: [
                "Content-Type": "application/json; charset=utf-8", "Content-Length": "\(body.readableBytes)",
                "Connection": "close",
            ])
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
            Self.lingeringClose(channel)
        }
    }

    /// Closes after an answer the way nginx's lingering close does: the output first, then the
    /// connection once the client has stopped sending (or after 2 s). Closing at once while the
    /// client still sends (a long head, a body nobody reads) makes the kernel reset the
    /// connection, and the client may lose the answer before reading it.
    static func lingeringClose(_ channel: any Channel) {
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }

    /// Closes the connection, whichever handlers are still in its pipeline.
    private func closeConnection() {
        if let channel { close(channel) }
    }

    private func close(_ channel: any Channel) {
        phase = .closing
        cancelTimer()
        channel.close(promise: nil)
    }

    private func move(to new: HTTPConnectionMetrics.State?) {
        metrics.move(from: state, to: new)
        state = new
    }
}
