import ContactCenter
import Foundation
import SwitchboardTesting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Many WebSocket clients on one thread: non-blocking sockets, `poll(2)`, and a scan of each
/// text message for agent rows (`"id":"…"` then `"statusSince":"…"`) instead of JSON decoding.
///
/// - Important: `receive()` runs on its own thread; `report()` only after `isStopped`.
final class BenchWebSocketLoad: @unchecked Sendable {
    // Safe: the per-connection state is touched only by the receiving thread after
    // `connectAll`; the flags shared with other threads are behind `control`.

    static let agentPrefix = "arn:aws:connect:ap-northeast-1:000000000000:instance/bench/agent/a"
    static func agentArn(_ index: Int) -> String { agentPrefix + String(index) }

    struct Report {
        var p50 = 0
        var p99 = 0
        var max = 0
        var delivered = 0
        /// Seconds into the run whose worst latency exceeded 100 ms, with that latency.
        var slowSeconds: [(second: Int, worst: Int)] = []
        var snapshots = 0
        var messages = 0
        var bytes = 0
        var closed = 0
    }

    private final class Connection {
        let socket: Int32
        var buffer: [UInt8] = []
        var start = 0
        var message: [UInt8] = []
        var open = true
        /// The newest status start (ms) seen per agent index.
        var newest: [Int64]

        init(socket: Int32, agents: Int) {
            self.socket = socket
            self.newest = [Int64](repeating: 0, count: agents)
        }
    }

    private let host: String
    private let port: UInt16
    private let path: String
    private let agents: Int
    private var connections: [Connection] = []
    private let control = Mutex((stop: false, stopped: false))
    /// Latency histogram, 1 ms buckets up to 60 s.
    private var histogram = [Int](repeating: 0, count: 60_001)
    private var maxLatency = 0
    /// The worst latency of each second of the run (by receipt time), for spotting stalls.
    private var worstPerSecond: [Int64: Int] = [:]
    private var delivered = 0
    private var snapshots = 0
    private var messages = 0
    private var bytes = 0
    /// The receive buffer, reused by every `recv`.
    private var chunk = [UInt8](repeating: 0, count: 262_144)

    init(host: String, port: UInt16, path: String, clients: Int, agents: Int) throws {
        self.host = host
        self.port = port
        self.path = path
        self.agents = agents
        for _ in 0..<clients {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr(host)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else { throw BenchError("connect failed: errno \(errno)") }
            connections.append(Connection(socket: fd, agents: agents))
        }
    }

    deinit { for connection in connections { close(connection.socket) } }

    /// Upgrades every connection and reads its first message (the snapshot).
    func connectAll(timeout: Duration) throws {
        let request = Array(
            ("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        for connection in connections {
            _ = request.withUnsafeBytes { send(connection.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            _ = fcntl(connection.socket, F_SETFL, fcntl(connection.socket, F_GETFL) | O_NONBLOCK)
        }
        let deadline = ContinuousClock.now + timeout
        var pending = Set(connections.indices)
        var headerDone = Set<Int>()
        while !pending.isEmpty {
            guard ContinuousClock.now < deadline else { throw BenchError("\(pending.count) clients not connected") }
            for index in pending {
                let connection = connections[index]
                guard read(connection) else { throw BenchError("connection closed during upgrade") }
                if !headerDone.contains(index) {
                    guard let end = find(connection.buffer, [13, 10, 13, 10], from: connection.start) else { continue }
                    let head = String(decoding: connection.buffer[..<end], as: UTF8.self)
                    guard head.hasPrefix("HTTP/1.1 101") else { throw BenchError("upgrade refused: \(head)") }
                    connection.start = end + 4
                    headerDone.insert(index)
                }
                if process(connection) > 0 { pending.remove(index) }
            }
            usleep(1_000)
        }
        delivered = 0
        worstPerSecond = [:]
        histogram = [Int](repeating: 0, count: histogram.count)
        maxLatency = 0
    }

    /// Reads and scans until ``stop()``.
    func receive() {
        var descriptors = connections.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        while !control.withLock({ $0.stop }) {
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            guard ready > 0 else { continue }
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let connection = connections[index]
                guard connection.open else { continue }
                if !read(connection) {
                    connection.open = false
                    descriptors[index].fd = -1
                    continue
                }
                _ = process(connection)
            }
        }
        control.withLock { $0.stopped = true }
    }

    func stop() { control.withLock { $0.stop = true } }
    var isStopped: Bool { control.withLock { $0.stopped } }

    func report() -> Report {
        var report = Report(
            max: maxLatency, delivered: delivered, snapshots: snapshots, messages: messages, bytes: bytes,
            closed: connections.filter { !$0.open }.count)
        let first = worstPerSecond.keys.min() ?? 0
        report.slowSeconds = worstPerSecond.filter { $0.value > 100 }.map { (Int($0.key - first), $0.value) }
            .sorted { $0.second < $1.second }
        let total = histogram.reduce(0, +)
        var seen = 0
        var p50: Int?
        for (bucket, count) in histogram.enumerated() where count > 0 {
            seen += count
            if p50 == nil && seen * 2 >= total { p50 = bucket }
            if seen * 100 >= total * 99 {
                report.p99 = bucket
                break
            }
        }
        report.p50 = p50 ?? 0
        return report
    }

    // MARK: - Internals

    /// Appends what the socket has; `false` when it closed.
    private func read(_ connection: Connection) -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection.socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += count
                connection.buffer += chunk[..<count]
                if count < chunk.count { return true }
                continue
            }
            if count == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK
        }
    }

    /// Consumes complete frames; returns how many text messages completed.
    private func process(_ connection: Connection) -> Int {
        var completed = 0
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        while true {
            let buffer = connection.buffer
            guard let frame = WebSocketFrame.parse(buffer, from: connection.start) else { break }
            let payload = buffer[frame.payload]
            connection.start = frame.payload.upperBound
            switch frame.opcode {
            case 0x9:  // ping → masked pong with the same payload
                let pong = WebSocketFrame.masked(opcode: 0xA, payload: Array(payload), mask: [0, 0, 0, 0])
                _ = pong.withUnsafeBytes { send(connection.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            case 0x1, 0x0:
                if frame.fin && connection.message.isEmpty {
                    payload.withUnsafeBufferPointer { scan($0, connection, now: now) }
                    completed += 1
                } else {
                    connection.message += payload
                    if frame.fin {
                        connection.message.withUnsafeBufferPointer { scan($0, connection, now: now) }
                        connection.message.removeAll(keepingCapacity: true)
                        completed += 1
                    }
                }
            case 0x8:
                connection.open = false
            default:
                break
            }
        }
        if connection.start > 0 {
            connection.buffer.removeFirst(connection.start)
            connection.start = 0
        }
        return completed
    }

    private static let rowKey = Array((#""id":""# + agentPrefix).utf8)
    private static let sinceKey = Array(#""statusSince":""#.utf8)
    private static let snapshotKey = Array(#""type":"snapshot""#.utf8)
    private static let rowSkip = skipTable(rowKey)
    private static let sinceSkip = skipTable(sinceKey)
    private static let snapshotSkip = skipTable(snapshotKey)

    /// Horspool's table: how far the window may move when its last byte is `b`.
    private static func skipTable(_ needle: [UInt8]) -> [Int] {
        var table = [Int](repeating: needle.count, count: 256)
        for (index, byte) in needle.dropLast().enumerated() { table[Int(byte)] = needle.count - 1 - index }
        return table
    }

    /// Counts the agent rows of one message that are news to this client.
    ///
    /// Rows are found with Boyer–Moore–Horspool over long needles (it skips most bytes): the
    /// client must read the whole stream of 500 connections on one core.
    private func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ connection: Connection, now: Int64) {
        messages += 1
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        func find(_ needle: [UInt8], _ skip: [Int], from index: Int) -> Int? {
            let last = needle.count - 1
            var position = index
            while position + last < count {
                var offset = last
                while offset >= 0, base[position + offset] == needle[offset] { offset -= 1 }
                if offset < 0 { return position }
                position += skip[Int(base[position + last])]
            }
            return nil
        }
        if let index = find(Self.snapshotKey, Self.snapshotSkip, from: 0), index < 80 { snapshots += 1 }
        var index = 0
        while let row = find(Self.rowKey, Self.rowSkip, from: index) {
            var cursor = row + Self.rowKey.count
            var agent = 0
            while cursor < count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                agent = agent * 10 + Int(bytes[cursor] - 48)
                cursor += 1
            }
            guard let since = find(Self.sinceKey, Self.sinceSkip, from: cursor) else { break }
            let open = since + Self.sinceKey.count
            var close = open
            while close < min(open + 30, count), bytes[close] != UInt8(ascii: "\"") { close += 1 }
            index = close
            guard agent < agents,
                let stamp = UTCTimestamp(
                    iso8601: String(decoding: UnsafeBufferPointer(rebasing: bytes[open..<close]), as: UTF8.self)),
                stamp.millisecondsSince1970 > connection.newest[agent]
            else { continue }
            connection.newest[agent] = stamp.millisecondsSince1970
            let latency = Int(max(0, now - stamp.millisecondsSince1970))
            histogram[min(latency, histogram.count - 1)] += 1
            maxLatency = max(maxLatency, latency)
            worstPerSecond[now / 1000] = max(worstPerSecond[now / 1000] ?? 0, latency)
            delivered += 1
        }
    }

    private func find(_ haystack: [UInt8], _ needle: [UInt8], from start: Int) -> Int? {
        guard haystack.count - start >= needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
