import Foundation
import Testing

@testable import Primitives

@Suite("raw JSON in jsonb's member order")
struct JSONBOrderTests {
    private func reordered(_ text: String) throws -> String {
        let data = try JSONDocument.parse(Data(text.utf8)) { $0.jsonbOrdered() }
        return String(decoding: data, as: UTF8.self)
    }

    // Expected outputs worked out by hand from PostgreSQL's rule (src/backend/utils/adt/jsonb_util.c,
    // lengthCompareJsonbStringValue: shorter names first, equal lengths by memcmp of their bytes).
    @Test(
        "members are ordered shorter names first, then by their bytes, at every depth; nothing else changes",
        arguments: [
            (
                #"{"b":1,"aa":{"z":[{"y":1,"x":2}],"ab":null},"a":"s"}"#,
                #"{"a":"s","b":1,"aa":{"z":[{"x":2,"y":1}],"ab":null}}"#
            ),
            (
                " {\n  \"b\" : [ 1.50 , -2e3, true, false ] ,\t\"a\": \"x y\" } ",
                #"{"a":"x y","b":[1.50,-2e3,true,false]}"#
            ),
            // "é" is two bytes: after "ab" (0x61 < 0xC3), both after "z".
            (#"{"é":1,"z":2,"ab":3}"#, #"{"z":2,"ab":3,"é":1}"#),
            // Upper case sorts before lower case (0x41 < 0x61); strings keep their escapes.
            (#"{"b":"\"q\" \u00e9","B":"\n"}"#, #"{"B":"\n","b":"\"q\" \u00e9"}"#),
            (#"[{"b":{},"a":[]},"s",3]"#, #"[{"a":[],"b":{}},"s",3]"#),
            (#""only a string""#, #""only a string""#),
            (#"{}"#, #"{}"#),
        ])
    func ordered(input: String, expected: String) throws {
        #expect(try reordered(input) == expected)
    }

    @Test("repeated names keep their order, so the last one still wins in jsonb")
    func repeatedNames() throws {
        #expect(try reordered(#"{"b":1,"a":2,"b":3}"#) == #"{"a":2,"b":1,"b":3}"#)
    }

    @Test("an object with an escaped name keeps its order (jsonb compares names decoded)")
    func escapedNames() throws {
        #expect(try reordered(#"{"b":1,"\u0061":2}"#) == #"{"b":1,"\u0061":2}"#)
        // Only that object: its neighbours are still ordered.
        #expect(
            try reordered(#"{"y":{"b":1,"\u0061":2},"x":{"b":1,"a":2}}"#)
                == #"{"x":{"a":2,"b":1},"y":{"b":1,"\u0061":2}}"#)
    }
}
