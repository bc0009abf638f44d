import ContactCenter
import Primitives

/// The port `GET /v1/staffing` reads plans through (implemented in Roles over PostgreSQL).
public protocol StaffingSource: Sendable {
    /// The plan for `request`, not stored.
    /// - Throws: `StaffingRequestError` for a request to refuse (an unknown queue); anything else
    ///   is a 500.
    func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String])

    /// The forecast offered load per queue id in `slot` of `date`, in Erlangs: what
    /// ``StaffedNow`` shares multi-queue agents by.
    func offeredLoad(on date: CivilDate, slot: DaySlot) async throws -> [String: Double]
}

extension StaffingSource {
    /// The load from the plan of `date` for every queue (80/20, Erlang C: the load does not
    /// depend on the target or the model).
    public func offeredLoad(on date: CivilDate, slot: DaySlot) async throws -> [String: Double] {
        let request = try StaffingPlanRequest(
            dates: date...date, queue: nil, model: .erlangC, target: try ServiceTarget(parsing: "80/20"),
            shrinkage: 0)
        return try await staffing(request).plan.offeredLoad(on: date, slot: slot)
    }
}

/// The port `GET /v1/staffing/intraday` reads the reforecast through (implemented in Roles by
/// the intraday planner over PostgreSQL).
public protocol IntradaySource: Sendable {
    /// The outlook `request` asks for, at `now` (seconds since 1970); `live` gives the floor's
    /// figures for the current slot's offered loads when the request is for now.
    /// - Throws: `StaffingRequestError` or `IntradayChangeError` for a request to refuse (an
    ///   unknown queue); anything else is a 500.
    func outlook(
        _ request: IntradayRequest, now: Double, live: (@Sendable ([String: Double]) async -> IntradayLive?)?
    ) async throws -> IntradayOutlook
}
