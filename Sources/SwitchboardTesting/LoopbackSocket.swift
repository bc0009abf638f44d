import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one way the tests' and benchmarks' hand-made clients open a TCP connection to a server on
/// 127.0.0.1 (they speak HTTP and WebSocket byte by byte to see what a library client hides).
public enum LoopbackSocket {
    /// A connection failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`; the caller closes it.
    ///
    /// - Throws: ``Failure`` with `errno` when the socket cannot be created or connected.
    public static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(error)")
        }
        return descriptor
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(descriptor, raw, length)
                _ = getsockname(descriptor, raw, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
