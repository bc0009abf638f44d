import ContactCenter
import Foundation

/// Switchboard's MCP tools, answered by the code behind the hook (the flows' evaluator) and the
/// console (the floor publisher's view): `store_status`, `store_hours`, `holidays`,
/// `find_stores`, `queue_status`.
///
/// `staffing_plan(queue, from, to)` joins them once the staffing-from-history work lands: a tool
/// here over its planner, with the same error conventions.
public enum SwitchboardTools {
    /// What `initialize` tells the model about the tools.
    static let instructions = """
        Switchboard answers the phones of restaurants in Japan. Resolve a store's id with find_stores, then ask \
        store_status (open now or at an instant, why, until when, next opening) or store_hours (a range of days). \
        holidays lists Japanese national holidays. queue_status tells how long callers wait right now.
        """

    /// The MCP server over `flows` and, when given, the live floor.
    ///
    /// - Parameters:
    ///   - flows: The flows the hook evaluates.
    ///   - floor: The floor's current view (`nil` where no floor runs: `queue_status` then says so).
    ///   - version: The server's version, for `serverInfo`.
    ///   - staffing: The forecast `queue_status` shares multi-queue agents by (``StaffedNow``);
    ///     `nil` where no database is: they count equally toward their queues.
    ///   - timeZone: The business time zone, for the forecast's current slot.
    ///   - assumedHandleSeconds: The handle time of `queue_status`'s expected wait.
    ///   - now: The clock (tests).
    public static func server(
        flows: any FlowProvider, floor: (@Sendable () async -> FloorView?)?, version: String,
        staffing: (any StaffingSource)? = nil, timeZone: TimeZone = TimeZone(identifier: "Asia/Tokyo")!,
        assumedHandleSeconds: Int = 300, now: @escaping @Sendable () -> Date = { Date() }
    ) -> MCPServer {
        let stores = StoreTools(flows: flows, now: now)
        let view = floor ?? { nil }
        let queues = QueueTools(
            floor: view, staffing: FloorStaffing(floor: view, source: staffing, timeZone: timeZone),
            assumedHandleSeconds: assumedHandleSeconds, now: now)
        return MCPServer(version: version, instructions: instructions, tools: stores.tools + [queues.tool])
    }

    /// The floor's current view from a publisher.
    public static func floorView(_ publisher: FloorPublisher) -> @Sendable () async -> FloorView? {
        { await publisher.currentView().view }
    }
}
