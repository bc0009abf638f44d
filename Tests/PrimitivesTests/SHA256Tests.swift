import Primitives
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test(
        "FIPS 180-4 and NIST example vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func vectors(message: String, digest: String) {
        #expect(Hexadecimal.encode(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test("one million times 'a', fed in uneven pieces")
    func millionA() {
        var hasher = SHA256()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let count = min(piece, remaining)
            hasher.update(repeatElement(UInt8(ascii: "a"), count: count))
            remaining -= count
            piece = piece % 997 + 13
        }
        #expect(
            Hexadecimal.encode(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("message lengths around the padding boundary agree with piecewise hashing")
    func paddingBoundaries() {
        for length in 50...130 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var hasher = SHA256()
            for byte in message { hasher.update([byte]) }
            #expect(hasher.finalize() == SHA256.hash(message))
        }
        // 55 and 56 bytes straddle the length field.
        #expect(
            Hexadecimal.encode(SHA256.hash(Array(String(repeating: "a", count: 55).utf8)))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(
            Hexadecimal.encode(SHA256.hash(Array(String(repeating: "a", count: 56).utf8)))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }
}
