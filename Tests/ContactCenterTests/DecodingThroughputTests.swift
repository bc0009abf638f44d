import Foundation
import Testing

@testable import ContactCenter

/// Decoding throughput, printed rather than asserted (timing never gates the unit tests).
///
/// Run in release mode: `SWITCHBOARD_BENCHMARKS=1 swift test -c release --filter DecodingThroughput`.
@Suite("DecodingThroughput", .enabled(if: ProcessInfo.processInfo.environment["SWITCHBOARD_BENCHMARKS"] == "1"))
struct DecodingThroughputTests {
    private func measure(_ label: String, bytes: Int, iterations: Int, _ body: () throws -> Void) rethrows {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<iterations { try body() }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(iterations) / seconds
        print("\(label): \(Int(rate)) per second, \(Int(rate * Double(bytes) / 1_000_000)) MB/s (\(bytes) bytes each)")
    }

    @Test("contact trace records, agent events, contact events, and Foundation for comparison")
    func throughput() throws {
        // The encoder's output: a realistic ~2.9 KB record.
        let ctrData = try ContactTraceRecord(jsonData: Data(Fixtures.ctrJSON.utf8)).jsonData()
        let agentData = Data(Fixtures.agentEventJSON.utf8)
        let contactData = Data(Fixtures.contactEventJSON.utf8)
        try measure("ContactTraceRecord(jsonData:)", bytes: ctrData.count, iterations: 50_000) {
            _ = try ContactTraceRecord(jsonData: ctrData)
        }
        try measure("AgentEvent(jsonData:)", bytes: agentData.count, iterations: 50_000) {
            _ = try AgentEvent(jsonData: agentData)
        }
        try measure("ContactEvent(jsonData:)", bytes: contactData.count, iterations: 50_000) {
            _ = try ContactEvent(jsonData: contactData)
        }
        let pascalData = Data(ContactEventSamples.disconnectedPascalCase.utf8)
        try measure("ContactEvent(jsonData:) PascalCase detail", bytes: pascalData.count, iterations: 50_000) {
            _ = try ContactEvent(jsonData: pascalData)
        }
        let bareData = Data(ContactEventSamples.connectedToAgentBare.utf8)
        try measure("ContactEvent(jsonData:) bare detail", bytes: bareData.count, iterations: 50_000) {
            _ = try ContactEvent(jsonData: bareData)
        }
        let sampleAgentData = Data(AgentEventSamples.onContacts.utf8)
        try measure("AgentEvent(jsonData:) sample without Type", bytes: sampleAgentData.count, iterations: 50_000) {
            _ = try AgentEvent(jsonData: sampleAgentData)
        }
        try measure("JSONSerialization.jsonObject (reference)", bytes: ctrData.count, iterations: 20_000) {
            _ = try JSONSerialization.jsonObject(with: ctrData)
        }
        let record = try ContactTraceRecord(jsonData: ctrData)
        measure("ContactTraceRecord.jsonData()", bytes: ctrData.count, iterations: 50_000) {
            _ = record.jsonData()
        }
    }
}
