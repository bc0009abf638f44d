import ContactCenter
import Primitives
import Server

/// The console demo's staffing: a fixed plan for the browser test, whatever the hour (every day
/// asked for alike, so the next 3 hours past midnight too), for the
/// demo floor's twenty queues (``DemoFloorScene``), each with one store. Every 15 minutes, at AHT
/// 180 s: Tokyo Reservations 10 contacts on a holiday, Osaka Delivery 5 and Kyoto Kaiseki 2 on
/// a weekday; Sapporo Izakaya, Fukuoka Ramen, Overflow and the fourteen other queues none (quiet).
struct DemoStaffingSource: StaffingSource {
    static let offered: [(queue: ResourceReference, store: String, dayType: DayType, offered: Double)] =
        [
            (DemoFloorScene.tokyo, "tokyo", .holiday, 10), (DemoFloorScene.osaka, "osaka", .weekday, 5),
            (DemoFloorScene.kyoto, "kyoto", .weekday, 2), (DemoFloorScene.sapporo, "sapporo", .weekday, 0),
            (DemoFloorScene.fukuoka, "fukuoka", .weekday, 0), (DemoFloorScene.overflow, "overflow", .weekday, 0),
        ] + DemoFloorScene.quiet.map { ($0, $0.name ?? "", .weekday, 0) }

    func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String]) {
        func baseline(_ offered: Double) -> StaffingBaseline {
            StaffingBaseline(
                weight: 1, days: 1, offered: Dictionary(uniqueKeysWithValues: (0..<96).map { (DaySlot($0), offered) }),
                handleSeconds: Dictionary(uniqueKeysWithValues: (0..<96).map { (DaySlot($0), offered * 180) }),
                handled: Dictionary(uniqueKeysWithValues: (0..<96).map { (DaySlot($0), offered) }))
        }
        var calendar = StaffingCalendar(request.dates)
        var queues: [String: StaffingQueueHistory] = [:]
        var baselines: [StaffingBaselineKey: StaffingBaseline] = [:]
        var names: [String: String] = [:]
        for entry in Self.offered {
            let id = entry.queue.arn ?? ""
            names[id] = entry.queue.name
            queues[id] = StaffingQueueHistory(
                name: entry.queue.name ?? id, stores: [entry.store], averageHandleTimeSeconds: 180, abandoned: 0,
                queueSeconds: 0)
            for day in calendar.dates { calendar.set(entry.dayType, store: entry.store, on: day) }
            baselines[StaffingBaselineKey(queue: id, store: entry.store, dayType: entry.dayType)] = baseline(
                entry.offered)
        }
        let forecast = StaffingForecast(queues: queues, baselines: baselines, calendar: calendar)
        let plan = try StaffingPlan(
            forecast: forecast, queues: queues, model: .erlangC, target: request.target, shrinkage: request.shrinkage)
        return (plan, names)
    }
}
