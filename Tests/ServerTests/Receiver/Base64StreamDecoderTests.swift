import Foundation
import Testing

@testable import Server

@Suite("Base64StreamDecoder")
struct Base64StreamDecoderTests {
    func decode(_ text: String, pieces: Int) -> [UInt8]? {
        var decoder = Base64StreamDecoder()
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        let step = max(1, bytes.count / max(pieces, 1))
        var start = 0
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            guard bytes[start..<end].withUnsafeBytes({ decoder.decode($0, into: &output) }) else { return nil }
            start = end
        }
        return decoder.finish(into: &output) ? output : nil
    }

    @Test("agrees with Foundation for every length and any split, with or without padding and line breaks")
    func agrees() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0..<70) + [1_000, 4_099] {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let text = data.base64EncodedString()
            for pieces in [1, 2, 3, 7, text.count] {
                #expect(decode(text, pieces: pieces) == Array(data), "length \(length), \(pieces) pieces")
            }
            let unpadded = text.replacingOccurrences(of: "=", with: "")
            #expect(decode(unpadded, pieces: 3) == Array(data), "unpadded, length \(length)")
            let wrapped = data.base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn])
            #expect(decode(wrapped, pieces: 5) == Array(data), "wrapped, length \(length)")
        }
    }

    @Test("whitespace or an invalid character at any offset of a long input, whole or split")
    func strayCharacters() {
        // The fast path decodes eight characters at a time: each stray character at every offset
        // of two such steps and a tail, in one piece and in pieces that split the steps.
        let data = Array((0..<60).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let text = Array(Data(data).base64EncodedString().utf8)
        for offset in 0..<text.count {
            for pieces in [1, 3] {
                var spaced = text
                spaced.insert(offset % 2 == 0 ? UInt8(ascii: " ") : UInt8(ascii: "\n"), at: offset)
                #expect(decode(String(decoding: spaced, as: UTF8.self), pieces: pieces) == data, "space at \(offset)")
                var invalid = text
                invalid[offset] = offset % 2 == 0 ? UInt8(ascii: "!") : UInt8(ascii: "-")
                #expect(decode(String(decoding: invalid, as: UTF8.self), pieces: pieces) == nil, "invalid at \(offset)")
            }
        }
    }

    @Test("invalid input is refused with a reason", arguments: ["aGVs!bG8=", "aGVsbG8=x", "a", "aG=Vs", "aGVsbG8=="])
    func invalid(text: String) {
        #expect(decode(text, pieces: 2) == nil, "\(text)")
    }
}
