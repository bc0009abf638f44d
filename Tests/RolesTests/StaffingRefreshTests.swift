import Testing

@testable import Roles

/// The console's planner brings the history up to date at most once per period: requests that
/// arrive together refresh once, a failed refresh is retried by the next request.
@Suite("Staffing: the panel's history refreshes")
struct StaffingRefreshTests {
    @Test("one refresh per period; a released claim lets the next request refresh")
    func claims() {
        let refreshes = StaffingPlanner.HistoryRefreshes(every: .seconds(300))
        #expect(refreshes.claim())
        #expect(!refreshes.claim(), "within the period")
        refreshes.release()
        #expect(refreshes.claim(), "after a failure")
        let immediate = StaffingPlanner.HistoryRefreshes(every: .zero)
        #expect(immediate.claim() && immediate.claim())
    }
}
