import Foundation
import SwitchboardTesting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP client for probing the server the way a broken client or an attacker would:
/// bytes in, bytes out, and whether (and when) the server closed the connection.
///
/// Every blocking call runs on a thread of its own (``onThread(_:)``), never on Swift's
/// cooperative pool, which the server under test shares.
final class RawSocket: Sendable {
    let descriptor: Int32
    let opened = ContinuousClock.now

    /// What a read until close or deadline saw.
    struct Reading: Sendable {
        var bytes: [UInt8]
        /// Whether the server closed the connection (EOF or reset) before the deadline.
        var closed: Bool
        /// When the read ended, from the connection's start.
        var elapsed: Duration
        var text: String { String(decoding: bytes, as: UTF8.self) }
        var statusLine: String { text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? "" }
    }

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = try LoopbackSocket.connect(port: port)
    }

    deinit { close(descriptor) }

    /// Sends `text`; `false` when the server has closed (a reset or broken pipe), which a probe
    /// that floods a closing server expects.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Reads until the server closes the connection or `limit` passes.
    func readUntilClosed(limit: Duration) -> Reading {
        read(limit: limit) { _ in false }
    }

    /// Reads until one whole response head and its `Content-Length` body arrived, the server
    /// closed, or `limit` passed.
    func readResponse(limit: Duration) -> Reading {
        read(limit: limit) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<end.lowerBound].lowercased()
            let length =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            return text.utf8.count - text[..<end.upperBound].utf8.count >= length
        }
    }

    private func read(limit: Duration, done: ([UInt8]) -> Bool) -> Reading {
        let deadline = ContinuousClock.now + limit
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return Reading(bytes: bytes, closed: true, elapsed: ContinuousClock.now - opened)
            }
            bytes += buffer[0..<count]
            if done(bytes) { return Reading(bytes: bytes, closed: false, elapsed: ContinuousClock.now - opened) }
        }
        return Reading(bytes: bytes, closed: false, elapsed: ContinuousClock.now - opened)
    }
}

extension RawSocket {
    /// What ``answerPings(for:)`` saw.
    struct PingAnswers: Sendable {
        var pings = 0
        var closed = false
    }

    /// After a WebSocket upgrade request: reads the 101 and then the server's frames for
    /// `duration`, answering each ping with its pong, as a healthy browser does.
    func answerPings(for duration: Duration) -> PingAnswers {
        var answers = PingAnswers()
        let deadline = ContinuousClock.now + duration
        var raw: [UInt8] = []
        var upgraded = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                answers.closed = true
                return answers
            }
            raw += buffer[0..<count]
            if !upgraded {
                guard let end = raw.firstRange(of: [13, 10, 13, 10]) else { continue }
                raw.removeSubrange(..<end.upperBound)
                upgraded = true
            }
            // Server frames are unmasked; the floor's are short enough for a 16-bit length.
            while raw.count >= 2 {
                var length = Int(raw[1] & 0x7F)
                var offset = 2
                if length == 126 {
                    guard raw.count >= 4 else { break }
                    length = Int(raw[2]) << 8 | Int(raw[3])
                    offset = 4
                } else if length == 127 {
                    guard raw.count >= 10 else { break }
                    length = raw[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    offset = 10
                }
                guard raw.count >= offset + length else { break }
                let opcode = raw[0] & 0x0F
                let payload = Array(raw[offset..<(offset + length)])
                raw.removeSubrange(..<(offset + length))
                if opcode == 0x8 {
                    answers.closed = true
                    return answers
                }
                if opcode == 0x9 {
                    answers.pings += 1
                    let mask: [UInt8] = [9, 8, 7, 6]
                    send(
                        [0x8A, 0x80 | UInt8(payload.count)] + mask
                            + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
                }
            }
        }
        return answers
    }
}

/// Runs `body` on a new thread and returns its result: blocking socket calls stay off the
/// cooperative pool.
///
/// The result reaches the caller when its task runs again, which on a loaded pool can be
/// seconds later: a probe that times something takes its instants inside `body`.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Starts `body` on a new thread at once, before the caller's task next suspends; the result
/// is awaited later. A close is seen when it happens even if the awaiting task is not
/// scheduled for seconds (a child task or `async let` would start only when the pool has a
/// free thread).
func startOnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
    let result = ThreadResult<T>()
    Thread.detachNewThread { result.deliver(body()) }
    return result
}

/// The result of a ``startOnThread(_:)`` body, delivered once.
final class ThreadResult<T: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<T, Never>)
        case delivered(T)
    }
    private let state = Mutex<State>(.pending)

    fileprivate func deliver(_ value: T) {
        let waiter = state.withLock { state -> CheckedContinuation<T, Never>? in
            defer { state = .delivered(value) }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: value)
    }

    var value: T {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> T? in
                    if case .delivered(let value) = state { return value }
                    state = .waiting(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
