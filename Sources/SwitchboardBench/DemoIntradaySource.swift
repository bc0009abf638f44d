import ContactCenter
import Foundation
import Primitives
import Server

/// The console demo's intraday reforecast: a hand-made plan and day so far for the demo floor's
/// queues (``DemoFloorScene``), reforecast by the real ``IntradayReforecast`` with the fixed
/// ``parameters`` (k = 4, half-life 90 min: the browser test's figures are worked out by hand from
/// them, whatever the product's standard becomes), for the chart, banner and what-if form.
///
/// The demo's day stands at 12:05 of today (`at=HH:MM` moves it), whatever the hour, so the
/// browser test's figures hold at any time. Every queue is open 11:00–21:00 (slots 44–83), each
/// 15 minutes planned at AHT 180 s and staffed as planned (`staffed_from: "plan"`):
///
/// | Queue | Plan per 15 min | Agents | Patience | 11:00 | 11:15 | 11:30 | 11:45 | 12:00 so far |
/// | --- | --- | --- | --- | --- | --- | --- | --- | --- |
/// | Tokyo Reservations | 10 | 4 | none (Erlang C) | 18 | 18 | 18 | 18 | 6 |
/// | Osaka Delivery | 5 | 3 | 120 s | 3 | 3 | 3 | 3 | 1 |
/// | Kyoto Kaiseki | 2 | 2 | none (Erlang C) | 0 | 3 | 0 | 2 | 0 |
///
/// Every contact so far was answered with 180 s of handling. Tokyo runs about 70 % over its
/// plan and is predicted to miss 80/20 within the hour; Osaka and Kyoto run under theirs. The
/// other queues of the demo floor have no plan and no contacts.
struct DemoIntradaySource: IntradaySource {
    /// The reforecast's parameters in the demo.
    static let parameters = IntradayParameters(
        volumePriorContacts: 4, halfLifeMinutes: 90, handleTimePriorContacts: 30)

    /// Where the demo's day stands: minutes after midnight (12:05).
    static let minute = 12 * 60 + 5
    /// The slots every queue is open: 11:00 to 21:00.
    static let opening = 44..<84

    /// One demo queue's plan and day so far.
    struct DemoQueue: Sendable {
        var queue: ResourceReference
        var planned: Double
        var agents: Int
        var patienceSeconds: Double?
        /// Contacts offered per closed slot (index), and in the current slot so far.
        var closed: [Int: Double]
        var current: Double
    }

    static let queues: [DemoQueue] =
        [
            DemoQueue(
                queue: DemoFloorScene.tokyo, planned: 10, agents: 4, patienceSeconds: nil,
                closed: [44: 18, 45: 18, 46: 18, 47: 18], current: 6),
            DemoQueue(
                queue: DemoFloorScene.osaka, planned: 5, agents: 3, patienceSeconds: 120,
                closed: [44: 3, 45: 3, 46: 3, 47: 3], current: 1),
            DemoQueue(
                queue: DemoFloorScene.kyoto, planned: 2, agents: 2, patienceSeconds: nil, closed: [45: 3, 47: 2],
                current: 0),
        ]
        + ([DemoFloorScene.sapporo, DemoFloorScene.fukuoka, DemoFloorScene.overflow] + DemoFloorScene.quiet).map {
            DemoQueue(queue: $0, planned: 0, agents: 0, patienceSeconds: nil, closed: [:], current: 0)
        }

    let timeZone: TimeZone

    func outlook(
        _ request: IntradayRequest, now: Double, live: (@Sendable ([String: Double]) async -> IntradayLive?)?
    ) async throws -> IntradayOutlook {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date: CivilDate
        if let asked = request.date {
            date = asked
        } else {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: now))
            date = CivilDate(year: parts.year!, month: parts.month!, day: parts.day!)!
        }
        let midnight = calendar.date(
            from: DateComponents(year: date.year, month: date.month, day: date.day))!.timeIntervalSince1970
        var minute = Double(request.clockMinute ?? Self.minute)
        if let instant = request.instant { minute = (instant - midnight) / 60 }

        var names: [String: String] = [:]
        for entry in Self.queues { names[entry.queue.arn ?? ""] = entry.queue.name }
        func resolve(_ label: String) -> String {
            if names[label] != nil { return label }
            return names.first { $0.value == label }?.key ?? label
        }
        var asked: String?
        if let queue = request.queue {
            let id = resolve(queue)
            guard names[id] != nil else {
                throw StaffingRequestError(.queue, .unknownQueue(queue, known: names.values.sorted()))
            }
            asked = id
        }
        for change in request.changes {
            guard case .move(let from, let to) = change.kind else { continue }
            for label in [from, to] where names[resolve(label)] == nil {
                throw IntradayChangeError(
                    text: change.description,
                    problem: "unknown queue \(label): queues are \(names.values.sorted().joined(separator: ", "))")
            }
        }

        let current = Int((minute / Double(DaySlot.minutes)).rounded(.down))
        var reforecasts: [IntradayReforecast] = []
        for entry in Self.queues {
            let id = entry.queue.arn ?? ""
            guard asked == nil || asked == id else { continue }
            var plan: [DaySlot: IntradayReforecast.PlanSlot] = [:]
            var actual: [DaySlot: IntradayReforecast.ActualSlot] = [:]
            if entry.planned > 0 {
                for index in Self.opening {
                    plan[DaySlot(index)] = IntradayReforecast.PlanSlot(
                        offered: entry.planned, averageHandleTimeSeconds: 180, agents: entry.agents,
                        offeredByStore: [id: entry.planned])
                }
            }
            for index in Self.opening where index <= current {
                let offered = index < current ? entry.closed[index] ?? 0 : entry.current
                guard offered > 0 else { continue }
                actual[DaySlot(index)] = IntradayReforecast.ActualSlot(
                    offeredByStore: [id: offered], answered: offered, handleSeconds: offered * 180, handled: offered)
            }
            var changes: [DaySlot: Double] = [:]
            for slot in plan.keys {
                let delta = request.changes.reduce(0.0) {
                    $0 + $1.delta(queue: id, slot: slot, asked: asked, resolve: resolve)
                }
                if delta != 0 { changes[slot] = delta }
            }
            reforecasts.append(
                try IntradayReforecast(
                    queue: id, plan: plan, actual: actual, minute: minute,
                    staffed: { plan[$0]?.agents.map(Double.init) }, changes: changes,
                    staffing: IntradayReforecast.Staffing(
                        model: request.model, target: request.target, patienceSeconds: entry.patienceSeconds),
                    parameters: Self.parameters))
        }
        return IntradayOutlook(
            date: date, instant: midnight + minute * 60, minute: minute, planSource: .history, staffedSource: .plan,
            target: request.target, parameters: Self.parameters, changes: request.changes, queues: reforecasts,
            queueNames: names, notes: ["demo: a hand-made plan and day so far, standing at 12:05"])
    }
}
