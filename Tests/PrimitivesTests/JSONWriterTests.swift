import Primitives
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    func quoted(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return writer.text
    }

    @Test("members in the order written, compact, with null, numbers and booleans")
    func objectLayout() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("b", "x")
        writer.member("a", 3)
        writer.nullMember("n")
        writer.key("list")
        writer.beginArray()
        writer.bool(true)
        writer.number(2.5)
        writer.number(4.0)
        writer.endArray()
        writer.endObject()
        #expect(writer.text == #"{"b":"x","a":3,"n":null,"list":[true,2.5,4]}"#)
    }

    @Test("escapes quotes, backslashes and control characters; U+0000 becomes U+FFFD")
    func escaping() {
        #expect(quoted("plain 日本語") == #""plain 日本語""#)
        #expect(quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(quoted("line\nreturn\rtab\t") == #""line\nreturn\rtab\t""#)
        #expect(quoted("\u{01}\u{1F}") == #""\u0001\u001f""#)
        #expect(quoted("nul\u{0}") == #""nul\ufffd""#)
        // Escapes at either end and side by side, and nothing to copy at all.
        #expect(quoted("") == #""""#)
        #expect(quoted("\"") == #""\"""#)
        #expect(quoted("\\x\n") == #""\\x\n""#)
        #expect(quoted("\t\u{1}é") == #""\t\u0001é""#)
    }

    @Test("string maps are written with sorted keys")
    func sortedMap() {
        var writer = JSONWriter()
        writer.stringMap(["z": "1", "a": "2"])
        #expect(writer.text == #"{"a":"2","z":"1"}"#)
    }
}
