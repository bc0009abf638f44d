import ContactCenter
import Primitives
import Testing

@testable import Services

/// The console's planner brings the history up to date at most once per period: requests that
/// arrive together refresh once, a failed refresh is retried by the next request.
@Suite("Staffing: the panel's history refreshes")
struct StaffingRefreshTests {
    /// December `day`, 2026.
    static func day(_ day: Int) -> CivilDate { CivilDate(year: 2026, month: 12, day: day)! }

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

    @Test("reads are kept until the next refresh, never from before a refresh that was claimed or still runs")
    func keptReads() {
        let refreshes = StaffingPlanner.HistoryRefreshes(every: .zero)
        let key = StaffingPlanner.ReadKey(dates: Self.day(1)...Self.day(1), queue: nil)
        let reads = StaffingPlanner.Reads(
            queueId: nil, queues: [:], baselines: [:], calendar: StaffingCalendar(Self.day(1)...Self.day(1)))

        #expect(refreshes.claim())
        let during = refreshes.reads(for: key)
        refreshes.keep(reads, for: key, generation: during.generation)
        #expect(refreshes.reads(for: key).reads == nil, "read while the refresh ran: may predate it")

        refreshes.refreshed()
        let after = refreshes.reads(for: key)
        #expect(after.reads == nil)
        refreshes.keep(reads, for: key, generation: after.generation)
        #expect(refreshes.reads(for: key).reads?.calendar.dates == [Self.day(1)])
        let other = StaffingPlanner.ReadKey(dates: Self.day(2)...Self.day(2), queue: nil)
        #expect(refreshes.reads(for: other).reads == nil, "another request's shape")

        let begun = refreshes.reads(for: other)
        #expect(refreshes.claim())
        refreshes.refreshed()
        #expect(refreshes.reads(for: key).reads == nil, "a refresh drops what was kept")
        refreshes.keep(reads, for: other, generation: begun.generation)
        #expect(refreshes.reads(for: other).reads == nil, "begun before the refresh")
    }

    @Test("at most a bounded number of request shapes are kept")
    func bounded() {
        let refreshes = StaffingPlanner.HistoryRefreshes(every: .seconds(300))
        #expect(refreshes.claim())
        refreshes.refreshed()
        let reads = StaffingPlanner.Reads(
            queueId: nil, queues: [:], baselines: [:], calendar: StaffingCalendar(Self.day(1)...Self.day(1)))
        for day in 1...(StaffingPlanner.HistoryRefreshes.maximumKept + 1) {
            let key = StaffingPlanner.ReadKey(dates: Self.day(day)...Self.day(day), queue: nil)
            refreshes.keep(reads, for: key, generation: refreshes.reads(for: key).generation)
        }
        let kept = (1...(StaffingPlanner.HistoryRefreshes.maximumKept + 1)).count { day in
            refreshes.reads(for: StaffingPlanner.ReadKey(dates: Self.day(day)...Self.day(day), queue: nil))
                .reads != nil
        }
        #expect(kept >= 1 && kept <= StaffingPlanner.HistoryRefreshes.maximumKept)
    }
}
