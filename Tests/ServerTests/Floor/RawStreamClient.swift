import Foundation
import SwitchboardTesting

/// A minimal HTTP/1.1 client over a ``LoopbackConnection`` for the stream tests: it speaks just
/// enough WebSocket (server frames, fragmented text, ping → pong) and Server-Sent Events
/// (chunked body, `id:`/`data:` lines, comments) to check the wire, and it can stop reading on
/// purpose, which high-level clients cannot.
///
/// It runs on the cooperative pool: it only ever takes what has arrived, and sleeps between
/// tries.
final class RawStreamClient {
    enum Failure: Error, Equatable {
        case connect(Int32)
        case closed
        case timeout(String)
        case protocolError(String)
    }

    /// One SSE event or comment.
    struct ServerSentEvent: Equatable {
        var id: String?
        var data: String?
        var comment: String?
    }

    private let connection: LoopbackConnection
    private var raw: [UInt8] = []
    private var rawStart = 0
    private var body: [UInt8] = []
    private var chunked = false
    private var chunkRemaining = 0
    private var fragments: [UInt8] = []

    private(set) var status = 0
    /// Whether WebSocket pings are answered (a broken peer's are not).
    var answersPings = true
    /// The code of the WebSocket close frame the server sent, once one arrived.
    private(set) var closeCode: UInt16?
    private(set) var headers: [String: String] = [:]

    /// Connects to 127.0.0.1:`port` and sends `GET path`, as a WebSocket upgrade when asked.
    init(port: Int, path: String, headers extra: [String: String] = [:], webSocket: Bool) throws {
        connection = try LoopbackConnection(port: port)
        var lines = ["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"]
        if webSocket {
            lines += [
                "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version: 13",
            ]
        } else {
            lines += ["Accept: text/event-stream"]
        }
        lines += extra.map { "\($0.key): \($0.value)" }
        try send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Ends the connection in both directions (the descriptor is closed at deinit).
    func shutdown() {
        connection.shutdown()
    }

    /// Sends another request on the same (keep-alive) connection; read its answer with
    /// ``readHead(timeout:)`` and ``readBody(timeout:)`` once the previous one was read whole.
    func sendRequest(_ lines: [String]) throws {
        try send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Reads the response head (status and headers).
    func readHead(timeout: Duration = .seconds(5)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let head = HTTPResponseHead(raw[rawStart...]) {
                consume(head.length)
                headers = head.headers
                status = head.status
                chunked = head.isChunked
                return
            }
            try await fill(until: deadline, what: "response head")
        }
    }

    /// The body of a response with `Content-Length` (an error, a refused upgrade).
    func readBody(timeout: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        let length = Int(headers["content-length"] ?? "") ?? 0
        while raw.count - rawStart < length { try await fill(until: deadline, what: "response body") }
        let body = String(decoding: raw[rawStart..<(rawStart + length)], as: UTF8.self)
        consume(length)
        return body
    }

    /// The next WebSocket text message (fragments joined), answering pings on the way.
    func nextWebSocketText(timeout: Duration = .seconds(10)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let (fin, opcode, payload) = try takeFrame() {
                switch opcode {
                case 0x9: if answersPings { try sendFrame(opcode: 0xA, payload: payload) }
                case 0x8:
                    if payload.count >= 2 { closeCode = UInt16(payload[0]) << 8 | UInt16(payload[1]) }
                    throw Failure.closed
                case 0x1, 0x0:
                    fragments += payload
                    if fin {
                        defer { fragments.removeAll() }
                        return String(decoding: fragments, as: UTF8.self)
                    }
                default: break
                }
                continue
            }
            try await fill(until: deadline, what: "WebSocket message")
        }
    }

    /// The next SSE event or comment.
    func nextServerSentEvent(timeout: Duration = .seconds(10)) async throws -> ServerSentEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            decodeChunks()
            if let end = find([10, 10], in: body) {  // events are small: removeFirst is fine
                let block = String(decoding: body[..<end], as: UTF8.self)
                body.removeFirst(end + 2)
                var event = ServerSentEvent()
                for line in block.split(separator: "\n") {
                    if line.hasPrefix(":") {
                        event.comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
                    } else if line.hasPrefix("id: ") {
                        event.id = String(line.dropFirst(4))
                    } else if line.hasPrefix("data: ") {
                        event.data = String(line.dropFirst(6))
                    }
                }
                if event.id == nil && event.data == nil && event.comment == nil { continue }
                return event
            }
            try await fill(until: deadline, what: "SSE event")
        }
    }

    /// The next SSE event that carries data (skipping comments).
    func nextServerSentData(timeout: Duration = .seconds(10)) async throws -> ServerSentEvent {
        while true {
            let event = try await nextServerSentEvent(timeout: timeout)
            if event.data != nil { return event }
        }
    }

    // MARK: - Internals

    /// Takes what has arrived, sleeping 2 ms between tries until something has.
    private func fill(until deadline: ContinuousClock.Instant, what: String) async throws {
        while true {
            switch connection.receive(into: &raw, waiting: .zero) {
            case .received: return
            case .closed: throw Failure.closed
            case .nothing:
                if ContinuousClock.now >= deadline { throw Failure.timeout(what) }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        guard connection.send(bytes) else { throw Failure.closed }
    }

    /// A masked client frame.
    private func sendFrame(opcode: UInt8, payload: [UInt8]) throws {
        try send(WebSocketFrame.masked(opcode: opcode, payload: payload))
    }

    private func takeFrame() throws -> (Bool, UInt8, [UInt8])? {
        guard let frame = WebSocketFrame.parse(raw, from: rawStart) else { return nil }
        guard !frame.masked else { throw Failure.protocolError("masked server frame") }
        let payload = Array(raw[frame.payload])
        consume(frame.payload.upperBound - rawStart)
        return (frame.fin, frame.opcode, payload)
    }

    private func decodeChunks() {
        guard chunked else {
            body += raw[rawStart...]
            consume(raw.count - rawStart)
            return
        }
        while raw.count > rawStart {
            let available = raw.count - rawStart
            if chunkRemaining > 0 {
                let take = min(chunkRemaining, available)
                body += raw[rawStart..<(rawStart + take)]
                consume(take)
                chunkRemaining -= take
                if chunkRemaining == 0 { chunkRemaining = -2 }  // the CRLF after the chunk
                continue
            }
            if chunkRemaining < 0 {
                let take = min(-chunkRemaining, available)
                consume(take)
                chunkRemaining += take
                continue
            }
            guard let end = find([13, 10], in: raw, from: rawStart) else { return }
            let size = Int(String(decoding: raw[rawStart..<end], as: UTF8.self), radix: 16) ?? 0
            consume(end + 2 - rawStart)
            chunkRemaining = size
            if size == 0 { return }
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count - start >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { bytes in
            outer: for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] { continue outer }
                return index
            }
            return nil
        }
    }

    /// Drops consumed bytes from the front of `raw` once they are many.
    private func consume(_ count: Int) {
        rawStart += count
        if rawStart > 1 << 20 || rawStart == raw.count {
            raw.removeFirst(rawStart)
            rawStart = 0
        }
    }
}
