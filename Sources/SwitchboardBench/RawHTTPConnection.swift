import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A keep-alive HTTP/1.1 connection over a plain blocking socket that writes prepared requests
/// and reads `Content-Length` answers: the cheapest possible client, so the load generator takes
/// as little of the machine's CPU as it can from the server it measures (URLSession on Linux
/// spends most of a core on 1.5 MB uploads). Used from one thread at a time.
final class RawHTTPConnection {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    /// The bytes of a POST request.
    static func request(path: String, port: Int, headers: [String: String], body: [UInt8]) -> [UInt8] {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Writes `request` and reads the answer: its status and body.
    func send(_ request: [UInt8]) throws -> (status: Int, body: String) {
        var offset = 0
        while offset < request.count {
            let written = request[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw POSIXError(.EPIPE) }
            offset += written
        }
        var received: [UInt8] = []
        while true {
            if let end = Self.headEnd(received) {
                let head = String(decoding: received[..<end], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
                let length =
                    lines.first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count >= end + 4 + length {
                    return (status, String(decoding: received[(end + 4)..<(end + 4 + length)], as: UTF8.self))
                }
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received.append(contentsOf: buffer[..<count])
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
