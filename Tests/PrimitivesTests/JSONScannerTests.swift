import Foundation
import Testing

@testable import Primitives

@Suite("JSON scanner")
struct JSONScannerTests {
    private func accepts(_ text: String) -> Bool {
        (try? JSONDocument.parse(Data(text.utf8)) { _ in true }) ?? false
    }

    @Test(
        "accepts valid JSON",
        arguments: [
            #"{}"#, #"[]"#, #" {"a" : [1, -0, 0.5, 1e10, -2.5E-3, true, false, null, "x"]} "#,
            #"{"a":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#, #""just a string""#, "42", #"{"日本":"寿司"}"#,
        ])
    func acceptsValid(text: String) {
        #expect(accepts(text))
    }

    @Test(
        "rejects what PostgreSQL jsonb would reject",
        arguments: [
            "", "{", "}", #"{"a":}"#, #"{"a" 1}"#, #"{"a":1,}"#, "[1,]", "[01]", "[1.]", "[.5]", "[+1]", "[1e]",
            #"{a:1}"#, "[tru]", "[NaN]", #"["\u0000"]"#, #"["\ud83d"]"#, #"["\ude00"]"#, #"["\x"]"#,
            "[\"tab\there\"]", "{} {}", "[1] x",
        ])
    func rejectsInvalid(text: String) {
        #expect(!accepts(text))
    }

    @Test("rejects invalid UTF-8 inside strings")
    func rejectsInvalidUTF8() throws {
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let data = Data([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")])
            #expect(throws: JSONDecodingError.self) { try JSONDocument.parse(data) { _ in } }
        }
    }

    @Test("sees a quote, an escape, a control character or a non-ASCII byte at every offset of a long string")
    func everyOffsetOfALongString() throws {
        // The scanner skips eight plain ASCII bytes at a time: whatever needs a look must be seen
        // wherever it falls in (or across) those words.
        let plain = "abcdefghijklmnopqrstuvwxyz0123456789"
        for offset in 0...plain.count {
            let head = String(plain.prefix(offset))
            let tail = String(plain.dropFirst(offset))
            let string = { (text: String) throws -> String? in
                try JSONDocument.parse(Data(#"{"k":"\#(text)","n":1}"#.utf8)) {
                    try JSONObjectReader.root($0).string("k")
                }
            }
            #expect(try string(head + #"\"x\\y\u00e9"# + tail) == head + "\"x\\yé" + tail)
            #expect(try string(head + "寿司é" + tail) == head + "寿司é" + tail)
            #expect(try string(head) == head)
            #expect(!accepts(#"{"k":""# + head + "\t" + tail + #""}"#), "a raw tab at \(offset)")
            #expect(!accepts(#"{"k":""# + head + "\u{1F}" + tail + #""}"#), "a raw 0x1F at \(offset)")
            #expect(try string(head + "\u{7F}" + tail) == head + "\u{7F}" + tail)
            var invalid = Array(#"{"k":""#.utf8) + Array(head.utf8) + [0xC0, 0xAF] + Array(tail.utf8)
            invalid += Array(#""}"#.utf8)
            #expect(throws: JSONDecodingError.self) { try JSONDocument.parse(Data(invalid)) { _ in } }
            #expect(!accepts(#"{"k":""# + head), "unterminated at \(offset)")
        }
    }

    @Test("rejects nesting deeper than the limit instead of overflowing the stack")
    func depthLimit() {
        #expect(!accepts(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)))
        #expect(accepts(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
    }

    @Test("decodes escapes and keeps the last of duplicate members, like jsonb")
    func strings() throws {
        let data = Data(#"{"k":"first","k":"a\"b\\c\u00e9\ud83d\ude00\n"}"#.utf8)
        let value = try JSONDocument.parse(data) { document in try JSONObjectReader.root(document).string("k") }
        #expect(value == "a\"b\\cé😀\n")
    }

    @Test("each object finds its own members, wherever its nested objects put theirs")
    func memberTables() throws {
        // Inner objects close (and file their members) before the outer one; names repeat
        // across levels; an escaped name equals its decoded form; the last duplicate wins.
        let data = Data(
            #"""
            {"a":"outer","Queue":{"a":"inner","Name":{"a":"deepest"},"b":[{"a":"in array"}],"a":"inner, last"},
             "Queue2":{},"":"empty name","b":2,"a":"outer, last"}
            """#.utf8)
        try JSONDocument.parse(data) { document in
            let root = try JSONObjectReader.root(document)
            #expect(try root.string("a") == "outer, last")
            #expect(try root.string("") == "empty name")
            #expect(try root.wholeNumber("b") == 2)
            #expect(try root.object("Queue2") != nil)
            #expect(try root.string("Name") == nil)
            let queue = try #require(try root.object("Queue"))
            #expect(try queue.string("a") == "inner, last")
            #expect(try queue.object("Name")?.string("a") == "deepest")
            #expect(try queue.objects("b")?.first?.string("a") == "in array")
            #expect(try queue.string("Queue") == nil)
            let empty = try #require(try root.object("Queue2"))
            #expect(try empty.string("a") == nil)
        }
    }

    @Test("reports the byte offset of a syntax error")
    func errorOffset() {
        #expect(
            throws: JSONDecodingError(
                path: "$", reason: "malformed JSON at byte 5: unexpected '}', expected a value")
        ) {
            try JSONDocument.parse(Data(#"{"a":}"#.utf8)) { _ in }
        }
    }

    @Test("writer output is valid JSON that reads back")
    func writerRoundTrip() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("text", "quote\" backslash\\ newline\n tab\t bell\u{7} nul\u{0} 寿司")
        writer.member("n", 42)
        writer.nullMember("none")
        writer.key("list")
        writer.beginArray()
        writer.number(1)
        writer.string("x")
        writer.endArray()
        writer.endObject()
        let text = try JSONDocument.parse(writer.data) { document in try JSONObjectReader.root(document).string("text")
        }
        #expect(text == "quote\" backslash\\ newline\n tab\t bell\u{7} nul\u{FFFD} 寿司")
        let foundation = try JSONSerialization.jsonObject(with: writer.data) as? [String: Any]
        #expect(foundation?["n"] as? Int == 42)
    }
}
