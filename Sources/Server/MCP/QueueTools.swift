import ContactCenter
import Foundation

/// `queue_status`: the live floor as the console shows it (``FloorView``), per queue: contacts
/// waiting, the oldest wait, agents available, the agents staffed by routing profile
/// (``StaffedNow``, the console's and `GET /v1/staffing`'s figure), and an expected wait.
///
/// The expected wait is an estimate, not a measurement: with an agent available and nobody
/// ahead it is 0; otherwise a new caller is `waiting + 1` in line, served by the queue's agents
/// who are available or on a contact (at least one), each taking ``MCPConfiguration/
/// assumedHandleSeconds`` per contact: `ceil((waiting + 1 - available) / agents) × handle time`.
struct QueueTools: Sendable {
    let floor: @Sendable () async -> FloorView?
    /// The forecast loads that share multi-queue agents out among their queues.
    let staffing: FloorStaffing
    let assumedHandleSeconds: Int
    let now: @Sendable () -> Date

    /// One queue's status.
    struct QueueStatus: Encodable, Sendable {
        var queueId: String
        var name: String
        var waiting: Int
        var oldestWaitSeconds: Int?
        var agentsAvailable: Int
        var agentsOnContact: Int
        /// Agents staffed by routing profile, an agent serving several queues shared among them.
        var agentsStaffed: Double
        var expectedWaitSeconds: Int
        var offeredToday: Int
        var answeredToday: Int
        var abandonedToday: Int
        var serviceLevel: Double?
    }

    var tool: MCPTool {
        MCPTool(
            name: "queue_status", title: "Queue status",
            description: """
                The contact center's queues right now: contacts waiting, the oldest wait, agents available and on \
                a contact, agents staffed (available, on a contact or in after-contact work, by routing profile; an \
                agent serving several queues counts toward each in proportion to its forecast load now, so the \
                figure can be fractional), and an expected wait for a new caller (an estimate: the callers ahead divided among the \
                queue's agents, times an assumed handle time of \(assumedHandleSeconds) s). One queue by name or id, \
                or all of them.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "queue": ["type": "string", "description": "The queue's name or ARN; all queues when omitted."],
                    "language": ToolLanguage.schema,
                ],
            ]
        ) { arguments throws(MCPToolError) in
            let language = try ToolLanguage.of(arguments)
            let wanted = try arguments.optionalString("queue")
            guard let view = await floor() else {
                throw MCPToolError(code: "floor_unavailable", "the live floor is not available on this server")
            }
            var queues = view.queues
            if let wanted, !wanted.isEmpty {
                let key = wanted.lowercased()
                queues = queues.filter { $0.id == wanted || $0.name.lowercased() == key }
                guard !queues.isEmpty else {
                    let names = view.queues.map(\.name).joined(separator: ", ")
                    throw MCPToolError(
                        code: "unknown_queue",
                        "no queue \"\(wanted)\"; the queues are \(names.isEmpty ? "none yet" : names)")
                }
            }
            let staffed = StaffedNow(view: view, offeredLoad: await staffing.offeredLoad())
            let statuses = queues.map { status(of: $0, agents: view.agents, staffed: staffed.queues[$0.id] ?? 0) }
            let text =
                statuses.isEmpty
                ? language.pick("キューの情報はまだありません。", "No queue has been seen yet.")
                : statuses.map { describe($0, language: language) }.joined(separator: "\n")
            let content: JSONValue = [
                "queues": try StoreTools.structured(statuses),
                "expectedWaitMethod": .string(
                    "ceil((waiting + 1 - available) / max(1, available + onContact)) x \(assumedHandleSeconds) s; "
                        + "0 when an agent is available and nobody waits"),
            ]
            return MCPToolResult(text: text, structuredContent: content)
        }
    }

    func status(of queue: QueueView, agents: [AgentView], staffed: Double) -> QueueStatus {
        let serving = agents.filter { $0.queues.contains(queue.name) || $0.queues.contains(queue.id) }
        let available = serving.filter { $0.activity == .available }.count
        let onContact = serving.filter { $0.activity == .onContact || $0.activity == .afterContactWork }.count
        let ahead = queue.waiting + 1 - available
        let expected =
            ahead <= 0
            ? 0
            : (ahead + max(1, available + onContact) - 1) / max(1, available + onContact)
                * assumedHandleSeconds
        let oldest = queue.oldestWaitSince.map { max(0, Int(now().timeIntervalSince($0.date))) }
        return QueueStatus(
            queueId: queue.id, name: queue.name, waiting: queue.waiting, oldestWaitSeconds: oldest,
            agentsAvailable: available, agentsOnContact: onContact,
            agentsStaffed: staffed, expectedWaitSeconds: expected,
            offeredToday: queue.offered, answeredToday: queue.answered, abandonedToday: queue.abandoned,
            serviceLevel: queue.serviceLevel)
    }

    func describe(_ status: QueueStatus, language: ToolLanguage) -> String {
        let minutes = (status.expectedWaitSeconds + 59) / 60
        return language.pick(
            "\(status.name)：待ち\(status.waiting)件、対応可能なエージェント\(status.agentsAvailable)人、"
                + "在席\(Self.figure(status.agentsStaffed))人、予想待ち時間 約\(minutes)分",
            "\(status.name): \(status.waiting) waiting, \(status.agentsAvailable) agents available, "
                + "\(Self.figure(status.agentsStaffed)) staffed, expected wait about \(minutes) min")
    }

    /// A staffed figure as people write it, to 2 decimals: "2", "2.5", "0.33".
    static func figure(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = String(hundredths / 100)
        let fraction = hundredths % 100
        if fraction == 0 { return whole }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(String(fraction + 100).dropFirst())"
    }
}
