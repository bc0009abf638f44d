import ContactCenter
import Foundation
import Primitives
import Synchronization

@testable import Server

/// A hand-made outlook and an intraday source that answers from a script, for the shortfall
/// gauges and the `staffing_outlook` tool.
enum IntradayFixtures {
    /// 80 % within 20 s, Erlang C.
    static let target = try! ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 20)

    /// A queue planned 10 contacts per slot with AHT 90 s over `slots` (1 Erlang: 10 × 90 / 900),
    /// no contacts yet, `staffed` agents, at `minute`.
    ///
    /// By hand, Erlang C with A = 1 and 80/20: 2 agents give C = (1/2 × 2) / (1 + 1 + 1) = 1/3 and
    /// SL = 1 − 1/3 × e^(−1 × 20/90) = 0.733088 (short of 80 %); 3 agents give
    /// C = (1/6 × 3/2) / (1 + 1 + 1/2 + 1/4) = 1/11 and SL = 1 − 1/11 × e^(−2 × 20/90) = 0.941711.
    /// So 3 agents are needed in every slot.
    static func queue(_ id: String, slots: ClosedRange<Int>, staffed: Double, minute: Double = 600) throws
        -> IntradayReforecast
    {
        let plan = Dictionary(
            uniqueKeysWithValues: slots.map {
                (
                    DaySlot($0),
                    IntradayReforecast.PlanSlot(offered: 10, averageHandleTimeSeconds: 90, agents: 3)
                )
            })
        return try IntradayReforecast(
            queue: id, plan: plan, actual: [:], minute: minute, staffed: { _ in staffed },
            staffing: IntradayReforecast.Staffing(model: .erlangC, target: target, patienceSeconds: nil))
    }

    /// At 10:00 of 2026-07-20: Reservations planned 10:00–12:00 with 2 staffed (1 short, SL 73 %),
    /// Delivery planned 10:00–12:00 with 3 staffed (none short, SL 94 %), Overflow planned only
    /// from 20:00 (nothing in the next hour).
    static func outlook(queues: Set<String> = ["arn:reservations", "arn:delivery", "arn:overflow"]) throws
        -> IntradayOutlook
    {
        var reforecasts: [IntradayReforecast] = []
        if queues.contains("arn:reservations") {
            reforecasts.append(try queue("arn:reservations", slots: 40...47, staffed: 2))
        }
        if queues.contains("arn:delivery") { reforecasts.append(try queue("arn:delivery", slots: 40...47, staffed: 3)) }
        if queues.contains("arn:overflow") { reforecasts.append(try queue("arn:overflow", slots: 80...83, staffed: 1)) }
        return IntradayOutlook(
            date: CivilDate(year: 2026, month: 7, day: 20)!, instant: 1_784_509_200, minute: 600,
            planSource: .history, staffedSource: .floor, target: target, parameters: .standard, changes: [],
            queues: reforecasts,
            queueNames: ["arn:reservations": "Reservations", "arn:delivery": "Delivery", "arn:overflow": "Overflow"],
            notes: [])
    }

    /// An error whose description holds a secret, which no log line or tool answer may repeat.
    struct SecretError: Error, CustomStringConvertible {
        var description: String { "connection refused for postgres://writer:hunter2-secret@db/switchboard" }
    }

    /// Answers each call with the next scripted result (the last one repeats) and records the
    /// requests and whether the floor's figures were offered.
    final class ScriptedSource: IntradaySource {
        private let state: Mutex<(script: [Result<IntradayOutlook, any Error>], requests: [IntradayRequest])>
        private let withLive = Mutex(0)

        init(_ script: [Result<IntradayOutlook, any Error>]) {
            state = Mutex((script, []))
        }

        var requests: [IntradayRequest] { state.withLock { $0.requests } }
        var callsWithLive: Int { withLive.withLock { $0 } }

        func outlook(
            _ request: IntradayRequest, now: Double, live: (@Sendable ([String: Double]) async -> IntradayLive?)?
        ) async throws -> IntradayOutlook {
            if live != nil { withLive.withLock { $0 += 1 } }
            let next = state.withLock { state in
                state.requests.append(request)
                return state.script.count > 1 ? state.script.removeFirst() : state.script[0]
            }
            return try next.get()
        }
    }
}
