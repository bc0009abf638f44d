import Foundation
import Testing

@testable import OperatingHours

@Suite("Evaluating flows")
struct FlowSetEvaluationTests {
    static let set: FlowSet = try! FlowSet.load(files: FlowSetLoaderTests.shippedFlows)

    func evaluate(
        _ flow: String = "main", store: String? = nil, number: String? = nil, contact: [String: String] = [:],
        parameters: [String: String] = [:], at text: String
    ) -> HookAnswer {
        Self.set.evaluate(
            flowName: flow, storeId: store, dialedNumber: number, contactAttributes: contact, parameters: parameters,
            at: try! ZonedInstant(iso8601: text).date)
    }

    @Test("closed for the year end: message about the next opening")
    func closedForClosure() {
        let answer = evaluate(store: "shinjuku-izakaya", at: "2026-12-31T22:30:00+09:00")
        let attributes = answer.attributes
        #expect(attributes["result"] == "closed")
        #expect(attributes["dayType"] == "closure")
        #expect(attributes["closureName"] == "年末年始休業")
        #expect(attributes["holidayName"] == "")
        #expect(attributes["closesAt"] == "")
        #expect(attributes["minutesUntilClose"] == "")
        #expect(attributes["nextOpenAt"] == "2027-01-03T16:00:00+09:00")
        #expect(attributes["rule"] == "closed-for-closure")
        #expect(attributes["message"]?.contains("2027-01-03の16:00") == true)
        #expect(attributes["storeId"] == "shinjuku-izakaya")
    }

    @Test("open with less than 15 minutes left: last order")
    func lastOrder() {
        let answer = evaluate(store: "ginza-sushi", at: "2026-06-10T21:50:00+09:00")
        #expect(answer.result == .open)
        let attributes = answer.attributes
        #expect(attributes["minutesUntilClose"] == "10")
        #expect(attributes["closesAt"] == "2026-06-10T22:00:00+09:00")
        #expect(attributes["prompt"] == "last_order")
        #expect(attributes["queue"] == "sushi")
        #expect(attributes["nextOpenAt"] == "2026-06-11T12:00:00+09:00")
    }

    @Test("open: queue by kind of store; nightlife for izakaya and bars; busy days")
    func queues() {
        #expect(evaluate(store: "ginza-sushi", at: "2026-06-10T18:00:00+09:00").attributes["queue"] == "sushi")
        // Saturday 01:00 is within Friday's 17:00-26:00; Thursday's span ended at 24:00.
        let izakaya = evaluate(store: "umeda-izakaya", at: "2026-06-13T01:00:00+09:00").attributes
        #expect(izakaya["result"] == "open" && izakaya["queue"] == "nightlife-kansai")
        #expect(izakaya["dayType"] == "weekday" && izakaya["closesAt"] == "2026-06-13T02:00:00+09:00")
        #expect(evaluate(store: "umeda-izakaya", at: "2026-06-12T01:00:00+09:00").result == .closed)
        let busy = evaluate(store: "ebisu-bistro", at: "2026-05-05T12:00:00+09:00").attributes
        #expect(busy["dayType"] == "holiday" && busy["holidayName"] == "こどもの日" && busy["priority"] == "high")
        let english = evaluate(store: "kyoto-kaiseki", contact: ["language": "en"], at: "2026-06-10T18:00:00+09:00")
        #expect(english.attributes["queue"] == "english")
    }

    @Test("a one-off override opens a Monday store on Christmas Eve")
    func override() {
        let answer = evaluate(store: "shibuya-trattoria", at: "2026-12-24T20:00:00+09:00").attributes
        #expect(answer["result"] == "open")
        #expect(answer["dayType"] == "override")
        #expect(answer["closureName"] == "クリスマスイブ特別営業")
        #expect(answer["closesAt"] == "2026-12-25T00:00:00+09:00")
    }

    @Test("store resolution: parameter, then contact attribute, then dialed number")
    func resolution() {
        let at = "2026-06-10T18:00:00+09:00"
        #expect(evaluate(number: "+81355500106", at: at).store?.id == "ginza-sushi")
        #expect(
            evaluate(number: "+81355500106", parameters: ["storeId": "ebisu-bistro"], at: at).store?.id
                == "ebisu-bistro")
        #expect(evaluate(contact: ["storeId": "kanda-soba"], at: at).store?.id == "kanda-soba")
        #expect(
            evaluate(contact: ["storeId": "kanda-soba"], parameters: ["storeId": "ginza-bar"], at: at).store?.id
                == "ginza-bar")
        let unknown = evaluate(parameters: ["storeId": "nowhere"], at: at)
        #expect(unknown.result == .error && unknown.failure == .unknownStore("nowhere"))
        #expect(unknown.attributes["error"] == "unknown_store" && unknown.attributes["result"] == "error")
        #expect(unknown.attributes["storeId"] == "nowhere")
        #expect(evaluate(at: at).failure == .unknownStore(nil))
        #expect(evaluate(number: "+819999999999", at: at).attributes["error"] == "unknown_store")
    }

    @Test("an unknown flow is distinguishable")
    func unknownFlow() {
        let answer = evaluate("nope", store: "ginza-sushi", at: "2026-06-10T18:00:00+09:00")
        #expect(answer.failure == .unknownFlow("nope"))
        #expect(answer.attributes["error"] == "unknown_flow")
        #expect(Self.set.flow(named: "nope") == nil)
    }

    @Test("reservations flow: stores without reservations, callbacks when closed")
    func reservations() {
        #expect(
            evaluate("reservations", store: "ueno-izakaya", at: "2026-06-10T18:00:00+09:00").ruleName
                == "no-reservations")
        let closed = evaluate("reservations", store: "ginza-sushi", at: "2026-06-08T18:00:00+09:00")  // a Monday
        #expect(closed.ruleName == "closed-callback" && closed.attributes["queue"] == "callback")
        #expect(
            evaluate("reservations", store: "ginza-sushi", at: "2026-06-09T18:00:00+09:00").attributes["queue"]
                == "reservations-kanto")
    }

    @Test("JSON and readable text renderings")
    func renderings() throws {
        let answer = evaluate(store: "ginza-sushi", at: "2026-06-10T21:50:00+09:00")
        let object = try JSONSerialization.jsonObject(with: Data(answer.jsonBytes)) as? [String: String]
        #expect(object == answer.attributes)
        let text = answer.readableText
        #expect(text.contains("closes at"))
        #expect(text.contains("2026-06-10T22:00:00+09:00 (in 10 min)"))
        #expect(text.contains("rule \"last-order\""))
        #expect(evaluate("nope", at: "2026-06-10T21:50:00+09:00").readableText.contains("unknown_flow"))
    }
}
