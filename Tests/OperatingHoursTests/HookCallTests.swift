import Testing

@testable import OperatingHours

@Suite("HookCall: the IVR hook's request body")
struct HookCallTests {
    private func decode(_ text: String) throws(HookCallError) -> HookCall {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBytes { raw in
            Result { () throws(HookCallError) in try HookCall.decode(UnsafeRawBufferPointer(raw)) }
        }.get()
    }

    private func reason(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("the Amazon Connect Lambda event: dialed number, attributes, parameters, `at` from the parameters")
    func connectEvent() throws {
        let call = try decode(
            #"""
            {"Name":"ContactFlowEvent","Details":{"ContactData":{"Attributes":{"language":"ja","storeId":"ginza-sushi","vip":true,"n":12,"gone":null},
            "Channel":"VOICE","ContactId":"5ca32fbd","SystemEndpoint":{"Address":"+81355500103","Type":"TELEPHONE_NUMBER"},"Queue":null},
            "Parameters":{"flowVersion":3,"at":"2026-12-31T22:30:00+09:00","storeId":"umeda-ramen"}}}
            """#)
        #expect(call.storeId == nil)
        #expect(call.dialedNumber == "+81355500103")
        #expect(call.contactId == "5ca32fbd")
        #expect(call.contactAttributes == ["language": "ja", "storeId": "ginza-sushi", "vip": "true", "n": "12"])
        #expect(call.parameters == ["flowVersion": "3", "at": "2026-12-31T22:30:00+09:00", "storeId": "umeda-ramen"])
        #expect(call.at == "2026-12-31T22:30:00+09:00")
    }

    @Test("a Connect event with null or missing parts reads as absent")
    func connectEventSparse() throws {
        #expect(try decode(#"{"Details":null}"#) == HookCall())
        #expect(try decode(#"{"Details":{"ContactData":{"SystemEndpoint":null}}}"#) == HookCall())
        #expect(try decode(#"{"Details":{"Parameters":{}}}"#) == HookCall())
    }

    @Test("the plain shape: every key optional, `at` at the top or among the parameters, numbers kept as written")
    func plainShape() throws {
        let call = try decode(
            #"{"storeId":"ginza-sushi","dialedNumber":"+8135550","contactId":"c-1","attributes":{"a":"x","b":1.5e3},"parameters":{"at":"p"},"at":"2026-01-01T00:00:00Z","extra":[1,{"x":2}]}"#
        )
        #expect(
            call
                == HookCall(
                    storeId: "ginza-sushi", dialedNumber: "+8135550", contactId: "c-1",
                    contactAttributes: ["a": "x", "b": "1.5e3"],
                    parameters: ["at": "p"], at: "2026-01-01T00:00:00Z"))
        #expect(try decode(#"{"parameters":{"at":"p"}}"#).at == "p")
        #expect(try decode(#"{}"#) == HookCall())
        #expect(try decode(#"{"storeId":42}"#).storeId == "42")
        #expect(try decode(#"{"storeId":false}"#).storeId == "false")
        #expect(try decode(#"{"storeId":null}"#).storeId == nil)
    }

    @Test("escapes are decoded and the last of duplicate keys wins")
    func escapesAndDuplicates() throws {
        let call = try decode(#"{"storeId":"a","storeId":"gin\u007Aa-\"sushi\"","attributes":{"name":"\u9280\u5EA7"}}"#)
        #expect(call.storeId == "ginza-\"sushi\"")
        #expect(call.contactAttributes["name"] == "銀座")
    }

    @Test("reasons name the member and what it must be")
    func reasons() {
        #expect(reason("") == "the body is empty: send a JSON object")
        #expect(reason("{not json")?.hasPrefix("malformed JSON") == true)
        #expect(reason(#"{"a":1} x"#)?.hasPrefix("malformed JSON") == true)
        #expect(reason(String(repeating: "[", count: 40_000))?.hasPrefix("malformed JSON") == true)
        #expect(reason("[1,2]") == "the body must be a JSON object, not an array")
        #expect(reason("\"text\"") == "the body must be a JSON object, not a string")
        #expect(reason(#"{"storeId":{"id":"x"}}"#) == "`storeId` must be a string")
        #expect(reason(#"{"at":[1]}"#) == "`at` must be a string")
        #expect(reason(#"{"attributes":["a"]}"#) == "`attributes` must be a JSON object")
        #expect(reason(#"{"attributes":{"a":{"b":1}}}"#) == "`attributes.a` must be a string")
        #expect(reason(#"{"Details":[]}"#) == "`Details` must be a JSON object")
        #expect(
            reason(#"{"Details":{"ContactData":{"Attributes":{"x":[1]}}}}"#)
                == "`Details.ContactData.Attributes.x` must be a string")
        #expect(
            reason(#"{"Details":{"ContactData":{"SystemEndpoint":{"Address":{}}}}}"#)
                == "`Details.ContactData.SystemEndpoint.Address` must be a string")
        #expect(reason("{\"storeId\":\"\u{01}\"}")?.hasPrefix("malformed JSON") == true)
    }
}
