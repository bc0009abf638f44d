import ContactCenter
import Foundation

/// Switchboard's MCP tools, answered by the code behind the hook (the flows' evaluator), the
/// console (the floor publisher's view) and, where a database is, the intraday reforecast:
/// `store_status`, `store_hours`, `holidays`, `find_stores`, `queue_status`, `staffing_outlook`.
public enum SwitchboardTools {
    /// What `initialize` tells the model about the tools.
    static let instructions = """
        Switchboard answers the phones of restaurants in Japan. Resolve a store's id with find_stores, then ask \
        store_status (open now or at an instant, why, until when, next opening) or store_hours (a range of days). \
        holidays lists Japanese national holidays. queue_status tells how long callers wait right now.
        """

    /// The instructions where `staffing_outlook` is served.
    static let instructionsWithOutlook =
        instructions + " staffing_outlook tells, per queue, how many agents the next hours need against those staffed."

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
    ///   - intraday: The reforecast behind `GET /v1/staffing/intraday`, which `staffing_outlook`
    ///     answers from; `nil` where there is none: the tool is not offered.
    ///   - staffingBudget: The staffing routes' budget, which each `staffing_outlook` call takes
    ///     its caller's turn from; `nil`: unbudgeted (tests).
    ///   - now: The clock (tests).
    public static func server(
        flows: any FlowProvider, floor: (@Sendable () async -> FloorView?)?, version: String,
        staffing: (any StaffingSource)? = nil, timeZone: TimeZone = TimeZone(identifier: "Asia/Tokyo")!,
        assumedHandleSeconds: Int = 300, intraday: (any IntradaySource)? = nil,
        staffingBudget: CallerBudget? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) -> MCPServer {
        let stores = StoreTools(flows: flows, now: now)
        let view = floor ?? { nil }
        let floorStaffing = FloorStaffing(floor: view, source: staffing, timeZone: timeZone)
        let queues = QueueTools(
            floor: view, staffing: floorStaffing, assumedHandleSeconds: assumedHandleSeconds, now: now)
        guard let intraday else {
            return MCPServer(version: version, instructions: instructions, tools: stores.tools + [queues.tool])
        }
        // As `GET /v1/staffing/intraday`: the floor's figures where a floor runs.
        var live: (@Sendable ([String: Double]) async -> IntradayLive?)?
        if floor != nil {
            live = { @Sendable loads in await floorStaffing.live(loads: loads) }
        }
        let outlook = StaffingTools(source: intraday, live: live, now: now, budget: staffingBudget)
        return MCPServer(
            version: version, instructions: instructionsWithOutlook,
            tools: stores.tools + [queues.tool, outlook.tool])
    }

    /// The floor's current view from a publisher.
    public static func floorView(_ publisher: FloorPublisher) -> @Sendable () async -> FloorView? {
        { await publisher.currentView().view }
    }
}
