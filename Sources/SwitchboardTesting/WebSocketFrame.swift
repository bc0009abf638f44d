/// A WebSocket frame on the wire (RFC 6455 §5.2), as the hand-made clients of the tests and the
/// benchmarks read the server's and write their own.
public struct WebSocketFrame: Sendable, Equatable {
    /// Whether it ends its message.
    public var fin: Bool
    /// Its opcode: 0x0 continuation, 0x1 text, 0x8 close, 0x9 ping, 0xA pong.
    public var opcode: UInt8
    /// Whether its sender masked it (a client must, a server must not); a masked payload is
    /// returned as sent.
    public var masked: Bool
    /// Where its payload lies in the bytes it was read from; its upper bound is where the next
    /// frame starts.
    public var payload: Range<Int>

    /// The frame that starts at `start` in `bytes`, or `nil` while it has not arrived whole.
    public static func parse(_ bytes: [UInt8], from start: Int = 0) -> WebSocketFrame? {
        guard bytes.count - start >= 2 else { return nil }
        var length = Int(bytes[start + 1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count - start >= 4 else { return nil }
            length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            offset = 4
        } else if length == 127 {
            guard bytes.count - start >= 10 else { return nil }
            length = bytes[(start + 2)..<(start + 10)].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        let masked = bytes[start + 1] & 0x80 != 0
        if masked { offset += 4 }
        guard bytes.count - start >= offset + length else { return nil }
        return WebSocketFrame(
            fin: bytes[start] & 0x80 != 0, opcode: bytes[start] & 0x0F, masked: masked,
            payload: (start + offset)..<(start + offset + length))
    }

    /// A whole client frame, masked with `mask` as a client's must be, for payloads under 126
    /// bytes (a pong, a close).
    public static func masked(opcode: UInt8, payload: [UInt8], mask: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask
            + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }
}
