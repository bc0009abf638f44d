import ContactCenter
import Foundation
import Primitives

/// `staffing_outlook`: the business day's reforecast per queue for the next hours, from the
/// source behind `GET /v1/staffing/intraday` (the same request, the same numbers, rounded alike):
/// per 15-minute slot the contacts reforecast, the agents needed against the agents staffed and
/// the predicted service level; per queue its shortfall over the next hour and whether it is
/// predicted to miss its target there.
struct StaffingTools: Sendable {
    /// The hours `hours` may ask for.
    static let hourRange = 1...12
    /// The hours given when `hours` is absent.
    static let defaultHours = 3

    let source: any IntradaySource
    /// The live floor's figures for a reforecast of now; `nil` where no floor runs.
    let live: (@Sendable ([String: Double]) async -> IntradayLive?)?
    let now: @Sendable () -> Date
    /// The staffing routes' budget: each reforecast takes the caller's turn there (``CallerBudget/caller``),
    /// so a batch of calls runs within one reader connection of the caller's, as its
    /// `GET /v1/staffing/intraday` would; `nil`: unbudgeted (tests).
    var budget: CallerBudget? = nil

    var tool: MCPTool {
        MCPTool(
            name: "staffing_outlook", title: "Staffing outlook",
            description: """
                The rest of today's staffing per queue, reforecast from how the day so far departs from the plan: \
                for each 15-minute slot of the next hours (the current slot first), the contacts expected, the \
                agents needed for 80 % answered within 20 s against the agents staffed now, and the predicted \
                service level with them; per queue, the agents short over the next hour (needed minus staffed; \
                negative: to spare) and whether it is predicted to miss its target. One queue by name or id, or \
                all of them; `hours` from \(Self.hourRange.lowerBound) to \(Self.hourRange.upperBound), \
                \(Self.defaultHours) by default.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "queue": ["type": "string", "description": "The queue's name or ARN; all queues when omitted."],
                    "hours": [
                        "type": "integer", "minimum": .number(Double(Self.hourRange.lowerBound)),
                        "maximum": .number(Double(Self.hourRange.upperBound)),
                        "description": "How many hours ahead, from now; 3 by default.",
                    ],
                    "language": ToolLanguage.schema,
                ],
            ]
        ) { arguments throws(MCPToolError) in
            let language = try ToolLanguage.of(arguments)
            let hours = try arguments.integer("hours", in: Self.hourRange, default: Self.defaultHours)
            var queue = try arguments.optionalString("queue")
            if queue?.isEmpty == true { queue = nil }
            var request = StaffingShortfallGauges.defaultRequest
            request.queue = queue
            let outlook = try await outlook(request)
            return MCPToolResult(
                text: Self.text(outlook, hours: hours, language: language),
                structuredContent: Self.structured(outlook, hours: hours))
        }
    }

    /// The source's outlook, its refusals as errors the model can act on.
    func outlook(_ request: IntradayRequest) async throws(MCPToolError) -> IntradayOutlook {
        do {
            let reforecast = { try await source.outlook(request, now: now().timeIntervalSince1970, live: live) }
            guard let budget else { return try await reforecast() }
            return try await budget.run(for: CallerBudget.caller ?? "process", reforecast)
        } catch let refusal as APIError where refusal.status == .tooManyRequests {
            throw MCPToolError(code: refusal.code, refusal.reason)
        } catch let refusal as StaffingRequestError {
            let message = refusal.message { $0 == .queue ? "queue" : $0.rawValue }
            throw MCPToolError(code: refusal.field == .queue ? "unknown_queue" : "invalid_argument", message)
        } catch let refusal as IntradayChangeError {
            throw .invalidArgument(refusal.description)
        } catch {
            throw MCPToolError(
                code: "staffing_unavailable", "the reforecast cannot be made right now; try again in a minute")
        }
    }

    /// The slots of `queue` from now for `hours`.
    static func window(_ queue: IntradayReforecast, hours: Int) -> ArraySlice<IntradayReforecast.Slot> {
        queue.ahead(minutes: Double(hours * 60))
    }

    /// A figure as the endpoint writes it (four decimals), or null.
    static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(IntradayOutlook.rounded(value))
    }

    /// The structured content: the outlook's instant and target, and per queue the window's slots.
    static func structured(_ outlook: IntradayOutlook, hours: Int) -> JSONValue {
        let queues: [JSONValue] = outlook.queues.map { queue in
            let slots: [JSONValue] = window(queue, hours: hours).map { slot in
                [
                    "slot": .number(Double(slot.slot.index)), "start": .string(slot.slot.clock),
                    "state": .string(slot.state.rawValue), "planContacts": number(slot.plan.offered),
                    "reforecastContacts": number(slot.reforecastOffered),
                    "agentsNeeded": slot.agentsNeeded.map { .number(Double($0)) } ?? .null,
                    "staffed": number(slot.staffed), "serviceLevel": number(slot.predicted?.serviceLevel),
                ]
            }
            return [
                "queueId": .string(queue.queue), "name": .string(outlook.queueNames[queue.queue] ?? queue.queue),
                "shortfallNextHour": number(queue.shortfallNextHour),
                "missesTargetNextHour": .bool(queue.missesTargetNextHour(outlook.target)),
                "volumeRatio": number(queue.volumeRatio), "slots": .array(slots),
            ]
        }
        let plan: String
        switch outlook.planSource {
        case .stored: plan = "stored"
        case .history: plan = "history"
        }
        return [
            "date": .string(outlook.date.description), "at": .string(clock(outlook.minute)),
            "hours": .number(Double(hours)),
            "target": [
                "serviceLevel": .number(outlook.target.serviceLevel),
                "thresholdSeconds": .number(outlook.target.thresholdSeconds),
            ],
            "plan": .string(plan), "staffedFrom": .string(outlook.staffedSource.rawValue), "queues": .array(queues),
        ]
    }

    /// The text for the model: a line per queue, then one per slot of its window.
    static func text(_ outlook: IntradayOutlook, hours: Int, language: ToolLanguage) -> String {
        let target = percent(outlook.target.serviceLevel)
        let threshold = QueueTools.figure(outlook.target.thresholdSeconds)
        let staffedFrom =
            outlook.staffedSource == .floor
            ? language.pick("現在のフロア", "the floor now") : language.pick("計画の人数", "as planned")
        var lines = [
            language.pick(
                "\(outlook.date) \(clock(outlook.minute))時点の再予測（今後\(hours)時間、目標：\(threshold)秒以内に\(target)、在席：\(staffedFrom)）",
                "Reforecast of \(outlook.date) at \(clock(outlook.minute)) for the next \(hours) h (target \(target) "
                    + "within \(threshold) s; staffed: \(staffedFrom))")
        ]
        if outlook.queues.isEmpty {
            lines.append(language.pick("予測できるキューがありません。", "No queue has a plan or contacts today."))
        }
        for queue in outlook.queues {
            let name = outlook.queueNames[queue.queue] ?? queue.queue
            let misses = queue.missesTargetNextHour(outlook.target)
            var line: String
            switch queue.shortfallNextHour {
            case let short? where short > 0:
                line = language.pick(
                    "\(name)：今後1時間で\(QueueTools.figure(short))人不足",
                    "\(name): \(agents(short)) short in the next hour")
            case let short? where short < 0:
                line = language.pick(
                    "\(name)：今後1時間の不足なし（余裕\(QueueTools.figure(-short))人）",
                    "\(name): no shortfall in the next hour (\(agents(-short)) to spare)")
            case .some:
                line = language.pick("\(name)：今後1時間の不足なし", "\(name): no shortfall in the next hour")
            case nil:
                line = language.pick(
                    "\(name)：今後1時間に必要人数の予測なし", "\(name): no agents needed or staffed in the next hour")
            }
            if misses {
                line += language.pick("、サービスレベル目標を下回る見込み", "; predicted to miss its target")
            }
            lines.append(line)
            for slot in window(queue, hours: hours) {
                let needed = slot.agentsNeeded.map(String.init) ?? "-"
                let staffed = slot.staffed.map(QueueTools.figure) ?? "-"
                let level = slot.predicted.map { percent($0.serviceLevel) } ?? "-"
                let contacts = oneDecimal(slot.reforecastOffered)
                lines.append(
                    language.pick(
                        "  \(slot.slot.clock) 予測\(contacts)件、必要\(needed)人、在席\(staffed)人、サービスレベル\(level)",
                        "  \(slot.slot.clock) \(contacts) contacts expected, agents needed \(needed), staffed "
                            + "\(staffed), service level \(level)"))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A number of agents in English: "1 agent", "2.5 agents".
    static func agents(_ value: Double) -> String {
        let figure = QueueTools.figure(value)
        return figure == "1" ? "1 agent" : "\(figure) agents"
    }

    /// `HH:MM` of a minute after the business date's midnight (past 24:00 for the night).
    static func clock(_ minute: Double) -> String {
        let whole = max(0, Int(minute.rounded(.down)))
        let hours = whole / 60
        let minutes = whole % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// A share as a whole percentage, as both languages write it: "72%".
    static func percent(_ share: Double) -> String {
        "\(Int((share * 100).rounded()))%"
    }

    /// One decimal: "12.3", "4".
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
