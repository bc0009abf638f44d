import ContactCenter
import Foundation
import Testing

/// Every published sample: decoded in jsonb order, the raw JSON is the same value (compared by
/// Foundation's parser), its objects' names come in jsonb order (read by a walker of this
/// test's own), and the decoded model is the same as from the bytes as received.
@Suite("the published samples' raw JSON in jsonb's member order")
struct SampleJSONBOrderTests {
    @Test("every published sample keeps its value and its model")
    func publishedSamples() throws {
        let samples =
            ContactTraceRecordSamples.all.map { ("ctr", $0.name, $0.json) }
            + AgentEventSamples.all.map { ("agent", $0.name, $0.json) }
            + ContactEventSamples.all.map { ("contact", $0.name, $0.json) }
        for (kind, name, json) in samples {
            let data = Data(json.utf8)
            let raw: Data?
            switch kind {
            case "ctr":
                let ordered = try ContactTraceRecord(jsonData: data, keepingRaw: .jsonbOrder)
                var plain = try ContactTraceRecord(jsonData: data)
                #expect(plain.rawJSON == data, "as received: the exact bytes (\(name))")
                plain.rawJSON = ordered.rawJSON
                #expect(plain == ordered, "\(name)")
                // The ingest's entry: parsed from an array of bytes where they are.
                let fromBytes = try ContactTraceRecord(jsonBytes: Array(json.utf8), keepingRaw: .jsonbOrder)
                #expect(fromBytes == ordered, "from bytes, raw JSON included (\(name))")
                let asReceived = try ContactTraceRecord(jsonBytes: Array(json.utf8), keepingRaw: .asReceived)
                #expect(asReceived.rawJSON == data, "from bytes as received: the exact bytes (\(name))")
                raw = ordered.rawJSON
            case "agent":
                let ordered = try AgentEvent(jsonData: data, keepingRaw: .jsonbOrder)
                var plain = try AgentEvent(jsonData: data)
                plain.rawJSON = ordered.rawJSON
                #expect(plain == ordered, "\(name)")
                raw = ordered.rawJSON
            default:
                let ordered = try ContactEvent(jsonData: data, keepingRaw: .jsonbOrder)
                var plain = try ContactEvent(jsonData: data)
                plain.rawJSON = ordered.rawJSON
                #expect(plain == ordered, "\(name)")
                raw = ordered.rawJSON
            }
            let stored = try #require(raw)
            let original = try JSONSerialization.jsonObject(with: data) as? NSObject
            let rewritten = try JSONSerialization.jsonObject(with: stored) as? NSObject
            #expect(original == rewritten, "the same value (\(name))")
            for keys in Self.objectNames(String(decoding: stored, as: UTF8.self)) {
                let sorted = keys.sorted { a, b in
                    a.utf8.count != b.utf8.count
                        ? a.utf8.count < b.utf8.count : a.utf8.lexicographicallyPrecedes(b.utf8)
                }
                #expect(keys == sorted, "\(name): \(keys)")
            }
        }
    }

    /// The member names of every object in `json`, each object's in order of appearance (names
    /// as written; the samples' names have no escapes).
    static func objectNames(_ json: String) -> [[String]] {
        var finished: [[String]] = []
        // One entry per open container: its names so far, nil for arrays.
        var open: [[String]?] = []
        var expectingName = false
        var string: String?
        var escaping = false
        for character in json {
            if var current = string {
                if escaping {
                    escaping = false
                    current.append(character)
                } else if character == "\\" {
                    escaping = true
                    current.append(character)
                } else if character == "\"" {
                    if expectingName, let last = open.indices.last {
                        open[last]?.append(current)
                        expectingName = false
                    }
                    string = nil
                    continue
                } else {
                    current.append(character)
                }
                string = current
                continue
            }
            switch character {
            case "\"": string = ""
            case "{":
                open.append([])
                expectingName = true
            case "[":
                open.append(nil)
            case "}", "]":
                if case .some(.some(let names)) = open.popLast() { finished.append(names) }
            case ",":
                expectingName = open.last.map { $0 != nil } ?? false
            default: break
            }
        }
        return finished
    }
}
