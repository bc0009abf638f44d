import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to a server on 127.0.0.1 that the tests and benchmarks speak HTTP and
/// WebSocket over byte by byte, to see what a library client hides: what a broken client or an
/// attacker sends, when the server closes, a request cut off in the middle.
///
/// Its calls block the calling thread. A probe runs them on a thread of its own
/// (``onThread(_:)``), never on Swift's cooperative pool, which the server under test shares; a
/// client on the pool calls ``receive(into:waiting:)`` with no wait and sleeps between calls.
/// Every instant a reading reports is taken inside the call, on the calling thread: a result
/// that reaches its awaiting task seconds later on a busy pool still says when the server closed.
public final class LoopbackConnection: Sendable {
    /// The socket, closed when the connection is released.
    public let descriptor: Int32
    /// When the connection was opened.
    public let opened: ContinuousClock.Instant

    /// What a read until close, completion or deadline saw.
    public struct Reading: Sendable {
        /// The bytes received.
        public var bytes: [UInt8]
        /// Whether the server closed the connection (EOF or reset) before the deadline.
        public var closed: Bool
        /// When the read ended, from the connection's opening.
        public var elapsed: Duration

        /// The bytes decoded leniently as UTF-8.
        public var text: String { String(decoding: bytes, as: UTF8.self) }
        /// The first line (an HTTP response's status line), without its CRLF.
        public var statusLine: String { text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? "" }
        /// The HTTP response head and its `Content-Length` body, when both arrived whole.
        public var response: (head: HTTPResponseHead, body: ArraySlice<UInt8>)? {
            guard let head = HTTPResponseHead(bytes[...]), bytes.count - head.length >= head.contentLength else {
                return nil
            }
            return (head, bytes[head.length..<(head.length + head.contentLength)])
        }
    }

    /// What one ``receive(into:waiting:)`` got.
    public enum Receipt: Sendable, Equatable {
        /// This many bytes arrived.
        case received(Int)
        /// The server closed the connection (EOF or reset).
        case closed
        /// Nothing arrived in the time allowed.
        case nothing
    }

    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Throws: `LoopbackSocket.Failure` when it cannot.
    public init(port: Int) throws {
        opened = .now
        descriptor = try LoopbackSocket.connect(port: port)
    }

    deinit { close(descriptor) }

    /// Sends `text`; see ``send(_:)-([UInt8])``.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends all of `bytes`: `false` when the server has closed (a reset or broken pipe), which
    /// a probe that floods a closing server expects. Never raises SIGPIPE.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                guard errno == EINTR else { return false }
                continue
            }
            offset += sent
        }
        return true
    }

    /// Waits up to `wait` for bytes and appends what has arrived (up to 64 KiB) to `bytes`; with
    /// no wait it never blocks.
    public func receive(into bytes: inout [UInt8], waiting wait: Duration) -> Receipt {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = wait.components
        guard poll(&poller, 1, Int32(seconds * 1_000 + attoseconds / 1_000_000_000_000_000)) > 0 else {
            return .nothing
        }
        let count = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65_536) { buffer in
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { bytes.append(contentsOf: buffer[..<count]) }
            return count
        }
        if count > 0 { return .received(count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return .nothing }
        return .closed
    }

    /// Reads until `done` holds for the bytes so far, the server closes the connection, or
    /// `limit` passes.
    public func read(limit: Duration, until done: ([UInt8]) -> Bool) -> Reading {
        let deadline = ContinuousClock.now + limit
        var bytes: [UInt8] = []
        while ContinuousClock.now < deadline {
            switch receive(into: &bytes, waiting: .milliseconds(50)) {
            case .nothing: continue
            case .closed: return Reading(bytes: bytes, closed: true, elapsed: ContinuousClock.now - opened)
            case .received:
                if done(bytes) { return Reading(bytes: bytes, closed: false, elapsed: ContinuousClock.now - opened) }
            }
        }
        return Reading(bytes: bytes, closed: false, elapsed: ContinuousClock.now - opened)
    }

    /// Reads until the server closes the connection or `limit` passes.
    public func readUntilClosed(limit: Duration) -> Reading {
        read(limit: limit) { _ in false }
    }

    /// Reads until one whole response head and its `Content-Length` body arrived, the server
    /// closed, or `limit` passed.
    public func readResponse(limit: Duration) -> Reading {
        read(limit: limit) { bytes in
            Reading(bytes: bytes, closed: false, elapsed: .zero).response != nil
        }
    }

    /// Ends the connection in both directions (the descriptor is closed when it is released).
    public func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// The bytes of an HTTP/1.1 request with a `Content-Length` body, its headers in name order.
    public static func request(
        _ method: String = "POST", path: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }
}
