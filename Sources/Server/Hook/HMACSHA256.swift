import Crypto

/// HMAC-SHA256 (RFC 2104) of hook signatures, computed by swift-crypto, and the hexadecimal
/// parsing its verifiers need.
///
/// Tested against the vectors of RFC 4231.
enum HMACSHA256 {
    /// The length of a MAC, in bytes.
    static let byteCount = SHA256.byteCount

    /// The 32-byte MAC of `message` under `key`.
    static func authenticationCode(for message: some Sequence<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(message), using: SymmetricKey(data: Array(key))))
    }

    /// Bytes of hexadecimal text (either case), or `nil` when it is not hexadecimal.
    static func bytes(hex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
