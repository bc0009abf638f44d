import Foundation
import Primitives
import Testing

@testable import ContactCenter

/// `switchboard staffing erlang`'s logic: exactly the documented JSON names, evaluation and search.
@Suite("Erlang calculator: JSON names, evaluate or find")
struct ErlangCalculationTests {
    private func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("finds 14 agents for 100 calls / 30 min, AHT 180, 80/20, shrinkage 0.3; JSON has exactly the names")
    func findErlangC() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        let calculation = try ErlangCalculation(
            load: load, target: ServiceTarget(parsing: "80/20"), agents: nil, patienceSeconds: nil, shrinkage: 0.3)
        let json = try object(calculation.json)
        #expect(
            Set(json.keys) == [
                "offered_load", "agents", "service_level", "connect_service_level", "probability_of_waiting",
                "average_speed_of_answer_s", "occupancy", "scheduled_agents",
            ])
        #expect(json["agents"] as? Int == 14)
        #expect(json["scheduled_agents"] as? Int == 20)
        #expect(json["offered_load"] as? Double == 10)
        #expect(abs((json["service_level"] as? Double ?? 0) - 0.8883500191794669) < 1e-12)
        #expect(calculation.text.contains("agents needed"))
        #expect(calculation.text.contains("88.84 % answered within 20 s"))
    }

    @Test("--agents 11 evaluates; --patience adds probability_of_abandoning")
    func evaluateErlangA() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        let calculation = try ErlangCalculation(
            load: load, target: ServiceTarget(parsing: "80/20"), agents: 11, patienceSeconds: 90, shrinkage: 0)
        let json = try object(calculation.json)
        #expect(json.count == 9)
        #expect(json["agents"] as? Int == 11)
        #expect(json["scheduled_agents"] as? Int == 11)
        let abandoning = try #require(json["probability_of_abandoning"] as? Double)
        #expect(abandoning > 0 && abandoning < 1)
        let connect = try #require(json["connect_service_level"] as? Double)
        let answered = try #require(json["service_level"] as? Double)
        #expect(connect > answered)
    }

    @Test("an unbounded queue prints null ASA, never NaN or Infinity")
    func unbounded() throws {
        let load = try TrafficLoad(volume: 100, intervalSeconds: 1800, averageHandleTimeSeconds: 180)
        let calculation = try ErlangCalculation(
            load: load, target: ServiceTarget(parsing: "80/20"), agents: 9, patienceSeconds: nil, shrinkage: 0)
        #expect(calculation.json.contains("\"average_speed_of_answer_s\":null"))
        #expect(!calculation.json.contains("nan") && !calculation.json.contains("inf"))
    }

    @Test("decimals written into bytes read as the string formatter writes them, signs and rounding included")
    func formatIntoBytes() {
        let values: [Double] = [
            0, -0.0, 0.004, 0.005, 0.0049999, -0.004, -0.005, -0.5, 2.675, 1.005, 9.99999, -9.99999, 12.5, 99.995,
            123_456.789, -123_456.789, 0.88835, 1e9 + 0.25, 3e10, 2e12, -2e12,
        ]
        for value in values {
            for digits in 0...4 {
                var bytes: [UInt8] = []
                ErlangCalculation.format(value, digits: digits, into: &bytes)
                #expect(
                    String(decoding: bytes, as: UTF8.self) == ErlangCalculation.format(value, digits: digits),
                    "\(value) with \(digits) digits")
            }
        }
        var bytes: [UInt8] = []
        ErlangCalculation.format(-0.25, digits: 1, into: &bytes)
        ErlangCalculation.format(7, digits: 2, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "-0.37.00")
        for (value, width) in [
            (0, 1), (7, 3), (10, 2), (99, 1), (1_000_000_007, 1), (UInt.max, 1), (10_000_000_000_000_000_000, 25),
        ] {
            var decimal: [UInt8] = []
            DecimalDigits.append(value, width: width, to: &decimal)
            let expected = String(value)
            #expect(
                String(decoding: decimal, as: UTF8.self)
                    == String(repeating: "0", count: max(0, width - expected.count)) + expected)
        }
    }
}
