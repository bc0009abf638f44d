import ContactCenter
import Primitives

/// What staffing reads and writes: the history kept per queue, store and day, the stores'
/// calendar, and the plans (implemented in Roles over PostgreSQL's `StaffingStore`).
public protocol StaffingRecords: Sendable {
    /// Brings the history up to date through yesterday, unless that was done less than `period` ago.
    /// - Returns: rows written (0 when skipped).
    @discardableResult
    func refreshHistory(unlessRefreshedWithin period: Duration) async throws -> Int

    /// The queues with history, by id, with their names (nil: only the id is known).
    func knownQueues() async throws -> [String: String?]

    /// The history of each queue active in the weeks before `start` (or of `queue` only).
    func queues(before start: CivilDate, queue: String?) async throws -> [String: StaffingQueueHistory]

    /// The weighted baselines of every queue, store and day type, for a plan starting on `start`.
    func baselines(before start: CivilDate, queue: String?) async throws -> [StaffingBaselineKey: StaffingBaseline]

    /// The dates of `dates` and each store's day type on them.
    func calendar(_ dates: ClosedRange<CivilDate>) async throws -> StaffingCalendar

    /// The contacts offered per date, queue and slot over `dates`.
    func offered(_ dates: ClosedRange<CivilDate>, queue: String?) async throws -> OfferedHistory

    /// Stores a plan while `make` makes it, in one transaction: `make` hands each part of the
    /// plan's rows to `write` as it staffs them.
    /// - Parameters:
    ///   - request: What the plan was asked for.
    ///   - queueId: The id of the one queue asked for (the request may name it by name).
    /// - Returns: the plan `make` returned and its `plan_id`.
    func save(
        _ request: StaffingPlanRequest, queueId: String?, queueNames: [String: String],
        making make: (_ write: (ArraySlice<StaffingPlan.Row>) async throws -> Void) async throws -> StaffingPlan
    ) async throws -> (plan: StaffingPlan, planId: Int)
}
