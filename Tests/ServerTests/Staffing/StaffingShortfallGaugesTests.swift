import ContactCenter
import Foundation
import Logging
import MetricsTestKit
import Synchronization
import Testing

@testable import Server

/// `switchboard_staffing_shortfall_agents{queue}` from a hand-made outlook: the figures per queue
/// name, 0 for a queue without a shortfall figure, queues that leave removed, failures logged at
/// most once a minute without the error's text, and the gauges dropped once the figures are stale.
@Suite("Staffing shortfall gauges")
struct StaffingShortfallGaugesTests {
    static let label = StaffingShortfallGauges.label

    /// The log lines written, for the at-most-once-a-minute rule.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])

        var logger: Logger {
            Logger(label: "test") { _ in Handler(box: self) }
        }

        struct Handler: LogHandler {
            let box: LogLines
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                box.lines.withLock { $0.append(event.message.description) }
            }
        }
    }

    final class Clock: Sendable {
        let now = Mutex(1_784_509_200.0)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    static func value(_ metrics: TestMetrics, _ queue: String) throws -> Double? {
        try metrics.expectGauge(label, [("queue", queue)]).lastValue
    }

    @Test("per queue name: needed minus staffed over the next hour, 0 without a figure")
    func figures() async throws {
        let metrics = TestMetrics()
        let source = IntradayFixtures.ScriptedSource([.success(try IntradayFixtures.outlook())])
        let gauges = StaffingShortfallGauges(
            source: source, floor: nil, factory: metrics, logger: LogLines().logger, clock: { 1_784_509_200 })
        var state = StaffingShortfallGauges.State()
        await gauges.refresh(&state)
        // Reservations: 3 needed (see IntradayFixtures), 2 staffed: 1 short. Delivery: 3 and 3: 0.
        // Overflow: no slot in the next hour, no figure: 0.
        #expect(try Self.value(metrics, "Reservations") == 1)
        #expect(try Self.value(metrics, "Delivery") == 0)
        #expect(try Self.value(metrics, "Overflow") == 0)
        #expect(metrics.recorders(label: Self.label).count == 3)
        // The endpoint's default request: every queue, 80/20, Erlang A; no floor offered.
        let request = try #require(source.requests.first)
        #expect(request.queue == nil && request.instant == nil && request.date == nil)
        #expect(request.target.serviceLevel == 0.8 && request.target.thresholdSeconds == 20)
        #expect(request.model == .erlangA)
        #expect(source.callsWithLive == 0)
    }

    @Test("a spare agent is a negative figure; a queue that leaves the outlook is removed")
    func spareAndRemoved() async throws {
        let metrics = TestMetrics()
        let spare = try IntradayFixtures.queue("arn:delivery", slots: 40...47, staffed: 4.5)
        var second = try IntradayFixtures.outlook(queues: ["arn:reservations"])
        second.queues.append(spare)
        let source = IntradayFixtures.ScriptedSource([
            .success(try IntradayFixtures.outlook()), .success(second),
        ])
        let gauges = StaffingShortfallGauges(
            source: source, floor: nil, factory: metrics, logger: LogLines().logger, clock: { 1_784_509_200 })
        var state = StaffingShortfallGauges.State()
        await gauges.refresh(&state)
        #expect(try Self.value(metrics, "Overflow") == 0)
        await gauges.refresh(&state)
        #expect(try Self.value(metrics, "Delivery") == -1.5)
        #expect(try Self.value(metrics, "Reservations") == 1)
        #expect(throws: (any Error).self) { try Self.value(metrics, "Overflow") }
        #expect(Set(state.gauges.keys) == ["Reservations", "Delivery"])
    }

    @Test("failures: logged at most once a minute without the error's text; figures dropped after 5 minutes")
    func failures() async throws {
        let metrics = TestMetrics()
        let log = LogLines()
        let clock = Clock()
        let failure: Result<IntradayOutlook, any Error> = .failure(IntradayFixtures.SecretError())
        let source = IntradayFixtures.ScriptedSource([
            .success(try IntradayFixtures.outlook()), failure, failure, failure, failure, failure, failure,
            failure, failure, failure, failure, failure,
        ])
        let gauges = StaffingShortfallGauges(
            source: source, floor: nil, factory: metrics, logger: log.logger, clock: { clock.now.withLock { $0 } })
        var state = StaffingShortfallGauges.State()
        await gauges.refresh(&state)
        // Eleven failures 30 s apart (at 30 s … 330 s): logged at 30, 90, 150, 210, 270, 330 s.
        for round in 1...11 {
            clock.advance(30)
            await gauges.refresh(&state)
            let lines = log.lines.withLock { $0 }
            #expect(lines.count == (round + 1) / 2, "round \(round): \(lines)")
            if round < 10 {
                // Until 300 s after the last success the last figures stand.
                #expect(try Self.value(metrics, "Reservations") == 1, "round \(round)")
            } else {
                #expect(metrics.recorders(label: Self.label).isEmpty, "round \(round)")
            }
        }
        let lines = log.lines.withLock { $0 }
        #expect(lines.allSatisfy { !$0.contains("hunter2") && !$0.contains("postgres://") }, "\(lines)")
        #expect(lines.first?.contains("SecretError") == true, "\(lines)")
        #expect(lines.last?.contains("2 failures since the last report") == true, "\(lines)")
    }

    @Test("the wait: a minute, or a second past the next 15-minute boundary when sooner")
    func delay() {
        let boundary = 1_784_509_200.0  // 10:00 in Tokyo, a slot boundary
        #expect(StaffingShortfallGauges.delay(after: boundary + 1, interval: 60) == 60)
        #expect(StaffingShortfallGauges.delay(after: boundary - 50, interval: 60) == 51)
        #expect(StaffingShortfallGauges.delay(after: boundary + 870, interval: 60) == 31)
        #expect(StaffingShortfallGauges.delay(after: boundary, interval: 60) == 60)
    }

    @Test("as a service: asks again after each wait and removes its gauges when it ends")
    func service() async throws {
        let metrics = TestMetrics()
        let source = IntradayFixtures.ScriptedSource([.success(try IntradayFixtures.outlook())])
        let gauges = StaffingShortfallGauges(
            source: source, floor: nil, interval: .milliseconds(20), factory: metrics, logger: LogLines().logger,
            clock: { 1_784_509_200 })
        let task = Task { try await gauges.run() }
        for _ in 0..<500 where source.requests.count < 3 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(source.requests.count >= 3)
        #expect(try Self.value(metrics, "Reservations") == 1)
        task.cancel()
        try await task.value
        #expect(metrics.recorders(label: Self.label).isEmpty)
    }
}
