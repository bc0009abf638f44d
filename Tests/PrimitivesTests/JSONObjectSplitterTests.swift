import Primitives
import Testing

@Suite("Splitting exported CTR files")
struct JSONObjectSplitterTests {
    static let objects = [#"{"ContactId":"a","Attributes":{"x":"}{"}}"#, #"{"ContactId":"b\"}","Queue":[{"n":1}]}"#]

    /// Feeds `text` to a new splitter `chunkSize` bytes at a time: the chunks it returned, as
    /// text, and what `finish()` returned.
    static func split(_ text: String, inChunksOf chunkSize: Int) -> ([String], [UInt8]?) {
        var splitter = JSONObjectSplitter()
        var output: [String] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            output += splitter.feed(bytes[start..<min(start + chunkSize, bytes.count)]).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        return (output, splitter.finish())
    }

    @Test("newline-delimited and concatenated objects split the same, in any chunking")
    func splitsBothLayouts() {
        for layout in [Self.objects.joined(separator: "\n") + "\n", Self.objects.joined()] {
            for chunkSize in [1, 2, 7, 1_000] {
                let (output, rest) = Self.split(layout, inChunksOf: chunkSize)
                #expect(rest == nil)
                #expect(output == Self.objects, "layout \(layout.count) bytes, chunks of \(chunkSize)")
            }
        }
    }

    @Test("braces, escaped quotes and backslashes at every offset of long strings stay inside them")
    func longStrings() {
        // The splitter skips eight plain bytes of a string at a time: a quote or backslash must be
        // seen wherever it falls, and braces inside strings never count.
        let filler = "abcdefghijklmnopqrstuvwxyz0123456789"
        let objects = (0..<24).map { offset in
            #"{"k":""# + filler.prefix(offset) + #"}{[\"\\"# + filler.dropFirst(offset)
                + #"","n":{"m":""# + filler + #"\"}"}}"#
        }
        for layout in [objects.joined(separator: "\n") + "\n", objects.joined()] {
            for chunkSize in [1, 3, 8, 13, 1_000] {
                let (output, rest) = Self.split(layout, inChunksOf: chunkSize)
                #expect(rest == nil)
                #expect(output == objects, "layout \(layout.count) bytes, chunks of \(chunkSize)")
            }
        }
    }

    @Test("garbage between objects and a truncated tail are returned, not lost")
    func reportsGarbage() {
        var splitter = JSONObjectSplitter()
        let chunks = splitter.feed(Array((#"{"a":1}oops"# + "\n" + #"{"b":2}{"c":"#).utf8))
        #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == [#"{"a":1}"#, "oops", #"{"b":2}"#])
        #expect(splitter.finish().map { String(decoding: $0, as: UTF8.self) } == #"{"c":"#)
    }

    @Test("a truncated line of a newline-delimited file does not swallow the next records")
    func truncatedLine() {
        var splitter = JSONObjectSplitter()
        let text =
            #"{"a":1}"# + "\n" + #"{"broken": {"x""# + "\n" + #"{"b":2}"# + "\n"
            + "{\n  \"pretty\": {\n    \"c\": 3\n  }\n}\n"
        let chunks = splitter.feed(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
        #expect(chunks == [#"{"a":1}"#, #"{"broken": {"x""#, #"{"b":2}"#, "{\n  \"pretty\": {\n    \"c\": 3\n  }\n}"])
        #expect(splitter.finish() == nil)
    }
}
