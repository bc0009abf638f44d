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

    @Test("invalid input is refused with a reason", arguments: ["aGVs!bG8=", "aGVsbG8=x", "a", "aG=Vs", "aGVsbG8=="])
    func invalid(text: String) {
        #expect(decode(text, pieces: 2) == nil, "\(text)")
    }
}
