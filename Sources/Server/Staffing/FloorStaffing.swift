import ContactCenter
import Foundation
import Primitives

/// Staffed now per queue (``StaffedNow``), from the live floor and the forecast of the current
/// slot: the one figure `GET /v1/staffing` (and so the console) and the MCP `queue_status` tool
/// report.
public struct FloorStaffing: Sendable {
    let floor: @Sendable () async -> FloorView?
    let source: (any StaffingSource)?
    let timeZone: TimeZone

    /// - Parameters:
    ///   - floor: The floor's current view.
    ///   - source: The forecast; `nil` where no database is (`serve`): multi-queue agents then
    ///     count equally toward their queues.
    ///   - timeZone: The business time zone, for the current slot.
    public init(
        floor: @escaping @Sendable () async -> FloorView?, source: (any StaffingSource)?, timeZone: TimeZone
    ) {
        self.floor = floor
        self.source = source
        self.timeZone = timeZone
    }

    /// The figures at `now` (the date and slot in the business time zone); `nil` without a floor.
    /// - Parameter loads: The loads of that slot when the caller already holds them; otherwise
    ///   read from the source. A forecast that cannot be read counts as no forecast.
    public func staffedNow(
        at now: (date: CivilDate, slot: DaySlot)? = nil, loads: [String: Double]? = nil
    ) async -> StaffedNow? {
        guard let view = await floor() else { return nil }
        if let loads { return StaffedNow(view: view, offeredLoad: loads) }
        return StaffedNow(view: view, offeredLoad: await offeredLoad(at: now))
    }

    /// The forecast offered load per queue at `now` (default: the current slot); empty without a
    /// source or when the forecast cannot be read.
    public func offeredLoad(at now: (date: CivilDate, slot: DaySlot)? = nil) async -> [String: Double] {
        guard let source else { return [:] }
        let now = now ?? StaffingRoutes.now(in: timeZone, at: Date())
        return (try? await source.offeredLoad(on: now.date, slot: now.slot)) ?? [:]
    }

    /// The floor's part of a reforecast made now: staffed per queue shared out by `loads`, and
    /// the contacts in progress; `nil` without a floor.
    public func live(loads: [String: Double]) async -> IntradayLive? {
        guard let view = await floor() else { return nil }
        return IntradayLive(view: view, offeredLoad: loads)
    }
}
