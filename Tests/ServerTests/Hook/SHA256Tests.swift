import Testing

@testable import Server

@Suite("SHA-256 and HMAC-SHA256")
struct SHA256Tests {
    func hex(_ text: String) -> [UInt8] { HMACSHA256.bytes(hex: Substring(text))! }

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
        #expect(HMACSHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
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
            HMACSHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
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
            HMACSHA256.hex(SHA256.hash(Array(String(repeating: "a", count: 55).utf8)))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(
            HMACSHA256.hex(SHA256.hash(Array(String(repeating: "a", count: 56).utf8)))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }

    @Test("RFC 4231 test cases 1-4, 6 and 7")
    func rfc4231() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
        for testCase in cases {
            #expect(
                HMACSHA256.hex(HMACSHA256.authenticationCode(for: testCase.data, key: testCase.key)) == testCase.mac)
        }
    }

    @Test("constant-time comparison and hex parsing")
    func helpers() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(HMACSHA256.bytes(hex: "0aFF") == [0x0a, 0xff])
        #expect(HMACSHA256.bytes(hex: "0g") == nil)
        #expect(HMACSHA256.bytes(hex: "abc") == nil)
    }
}
