import Primitives
import Testing

@Suite("Gzip: one inflater for files and request bodies")
struct GzipTests {
    /// Inflates `compressed` fed in pieces of `step` bytes.
    func inflate(_ compressed: [UInt8], step: Int, chunkBytes: Int = 1024) throws -> [UInt8] {
        let inflater = try GzipInflater(outputChunkBytes: chunkBytes)
        var output: [UInt8] = []
        var start = 0
        while start < compressed.count {
            let end = min(start + step, compressed.count)
            try compressed[start..<end].withUnsafeBytes { piece in
                try inflater.inflate(piece) { chunk in
                    #expect(chunk.count <= inflater.outputChunkBytes)
                    output.append(contentsOf: chunk)
                }
            }
            start = end
        }
        try inflater.finish()
        return output
    }

    @Test("round trip in any chunking, output handed out in bounded pieces")
    func roundTrip() throws {
        let text = Array((0..<20_000).map { "line \($0) of the record\n" }.joined().utf8)
        let compressed = try GzipDeflater.compress(text)
        #expect(GzipInflater.isGzip(compressed))
        #expect(compressed.count < text.count / 4)
        for step in [1, 7, 4096, compressed.count] {
            #expect(try inflate(compressed, step: step) == text, "step \(step)")
        }
    }

    @Test("concatenated members inflate as one stream")
    func members() throws {
        let first = try GzipDeflater.compress(Array("{\"a\":1}\n".utf8))
        let second = try GzipDeflater.compress(Array("{\"b\":2}\n".utf8))
        #expect(try inflate(first + second, step: 5) == Array("{\"a\":1}\n{\"b\":2}\n".utf8))
    }

    @Test("truncated, corrupt and empty input are errors")
    func errors() throws {
        let compressed = try GzipDeflater.compress(Array(repeating: UInt8(ascii: "x"), count: 10_000))
        #expect(throws: GzipError.self) { try inflate(Array(compressed.dropLast(6)), step: 100) }
        var corrupt = compressed
        corrupt[12] ^= 0xFF
        #expect(throws: GzipError.self) { try inflate(corrupt, step: 100) }
        #expect(throws: GzipError.self) { try inflate(Array("plain text".utf8), step: 100) }
        #expect(throws: GzipError.self) { try GzipInflater().finish() }
    }

    @Test("a consumer can stop a decompression bomb after a bounded amount of output")
    func bomb() throws {
        let compressed = try GzipDeflater.compress([UInt8](repeating: 0, count: 50_000_000), level: 9)
        #expect(compressed.count < 100_000)
        struct Limit: Error {}
        let inflater = try GzipInflater()
        var seen = 0
        #expect(throws: Limit.self) {
            try compressed.withUnsafeBytes { input in
                try inflater.inflate(input) { chunk in
                    seen += chunk.count
                    if seen > 1_000_000 { throw Limit() }
                }
            }
        }
        #expect(seen <= 1_000_000 + inflater.outputChunkBytes)
    }
}
