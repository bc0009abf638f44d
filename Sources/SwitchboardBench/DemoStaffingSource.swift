import ContactCenter
import Primitives
import Server

/// The console demo's staffing: a fixed plan for the browser test, whatever the hour. Tokyo
/// Reservations' store keeps a holiday and is offered 10 contacts every 15 minutes (AHT 180 s:
/// 4 agents for 80/20, one more than the demo floor's 3 staffed: red); Osaka Delivery's store a
/// weekday with 5 (3 agents: enough).
struct DemoStaffingSource: StaffingSource {
    func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String]) {
        let queues = [
            "demo-tokyo": StaffingQueueHistory(
                name: "Tokyo Reservations", stores: ["tokyo"], averageHandleTimeSeconds: 180, abandoned: 0,
                queueSeconds: 0),
            "demo-osaka": StaffingQueueHistory(
                name: "Osaka Delivery", stores: ["osaka"], averageHandleTimeSeconds: 180, abandoned: 0,
                queueSeconds: 0),
        ]
        func baseline(_ offered: Double) -> StaffingBaseline {
            StaffingBaseline(
                weight: 1, days: 1, offered: Dictionary(uniqueKeysWithValues: (0..<96).map { (DaySlot($0), offered) }),
                handleSeconds: Dictionary(uniqueKeysWithValues: (0..<96).map { (DaySlot($0), offered * 180) }),
                handled: Dictionary(uniqueKeysWithValues: (0..<96).map { (DaySlot($0), offered) }))
        }
        let day = request.dates.lowerBound
        var calendar = StaffingCalendar(day...day)
        calendar.set(.holiday, store: "tokyo", on: day)
        calendar.set(.weekday, store: "osaka", on: day)
        let forecast = StaffingForecast(
            queues: queues,
            baselines: [
                StaffingBaselineKey(queue: "demo-tokyo", store: "tokyo", dayType: .holiday): baseline(10),
                StaffingBaselineKey(queue: "demo-osaka", store: "osaka", dayType: .weekday): baseline(5),
            ],
            calendar: calendar)
        let plan = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangC, target: request.target, shrinkage: request.shrinkage)
        return (plan, ["demo-tokyo": "Tokyo Reservations", "demo-osaka": "Osaka Delivery"])
    }
}
