import Primitives

/// The forecast per queue × business date × 15-minute slot: offered contacts and AHT, from each
/// store's same-day-type weighted history.
///
/// For a date D and a queue Q, each store S feeding Q contributes its weighted average of the
/// offered contacts per slot over its baseline days of S's day type on D (a chain's founding day
/// is a holiday for its stores only); the contributions add up. On an ordinary day (weekday,
/// weekend) the baseline days are those of D's own weekday (a key with `weekday`); on a holiday or
/// pre-holiday those with D's opening hours (a key with `hours`); where those have none yet, every
/// day of the type pooled. A store that `flows/` opens at no time on D contributes nothing. AHT is the handle-time-weighted mean
/// over the same days. Closures contribute nothing; a day type with no history falls back
/// (`DayType.fallbacks`) and says so in `notes`, never a silent zero.
public struct StaffingForecast: Sendable {
    /// One queue's forecast for one slot of one date.
    public struct Interval: Sendable, Equatable {
        /// The queue's id.
        public var queue: String
        /// The business date.
        public var date: CivilDate
        /// The 15 minutes of that business day.
        public var slot: DaySlot
        /// The day types of the stores feeding the queue that day, in ``DayType``'s order.
        public var dayTypes: [DayType]
        /// Offered contacts (answered + abandoned + callbacks).
        public var offered: Double
        /// AHT, seconds (nil when the queue never handled a contact).
        public var averageHandleTimeSeconds: Double?
        /// `offered` per store feeding the queue; filled only for a forecast made `keepingStores`
        /// (the intraday reforecast updates each store on its own).
        public var offeredByStore: [String: Double] = [:]

        /// The day types as one label, e.g. `weekday+holiday`.
        public var dayTypesLabel: String { dayTypes.map(\.rawValue).joined(separator: "+") }
    }

    /// The intervals, by queue, date, slot.
    public private(set) var intervals: [Interval] = []
    /// Fallbacks and gaps, one line each, deduplicated.
    public private(set) var notes: [String] = []

    /// Forecasts `dates` for `queues`, or for the one queue `only` of them: the forecasts of
    /// each queue alone, in the order of their ids, make up the forecast of all of them.
    /// - Parameters:
    ///   - queues: the queues to forecast and their history.
    ///   - baselines: the weighted history per queue, store and day type.
    ///   - calendar: the business dates and each store's day type on them.
    ///   - only: the id of the one queue to forecast.
    ///   - keepingStores: whether each interval keeps its stores' parts (``Interval/offeredByStore``).
    public init(
        queues: [String: StaffingQueueHistory], baselines: [StaffingBaselineKey: StaffingBaseline],
        calendar: StaffingCalendar, only: String? = nil, keepingStores: Bool = false
    ) {
        var noted = Set<String>()
        func note(_ line: String) {
            if noted.insert(line).inserted { notes.append(line) }
        }
        // Each day type's pool over its weekdays or hours, for a date whose own have no history.
        var pooled: [StaffingBaselineKey: StaffingBaseline] = [:]
        for (key, baseline) in baselines {
            let pool = StaffingBaselineKey(queue: key.queue, store: key.store, dayType: key.dayType)
            var sum = pooled[pool] ?? StaffingBaseline(weight: 0, days: 0)
            sum.merge(baseline)
            pooled[pool] = sum
        }
        func baseline(_ queue: String, _ store: String, _ type: DayType, on date: CivilDate) -> StaffingBaseline? {
            let own: StaffingBaselineKey
            if type == .weekday || type == .weekend {
                own = StaffingBaselineKey(queue: queue, store: store, dayType: type, weekday: date.weekday)
            } else {
                own = StaffingBaselineKey(
                    queue: queue, store: store, dayType: type, hours: calendar.hours(of: store, on: date))
            }
            if own.weekday != nil || own.hours != nil, let found = baselines[own], found.weight > 0 {
                return found
            }
            let pool = StaffingBaselineKey(queue: queue, store: store, dayType: type)
            guard let any = pooled[pool], any.weight > 0 else { return nil }
            return any
        }
        for queue in only.map({ [$0] }) ?? queues.keys.sorted() {
            guard let history = queues[queue] else { continue }
            let label = history.name ?? queue
            var allSlots = Set<DaySlot>()
            for (key, baseline) in baselines where key.queue == queue {
                allSlots.formUnion(baseline.offered.keys)
            }
            if history.averageHandleTimeSeconds == nil {
                note("queue \(label): no handled contacts in its history: AHT unknown, no staffing")
            }
            struct Day {
                var date: CivilDate
                var dayTypes: [DayType]
                var offered: [DaySlot: Double] = [:]
                var handleSeconds: [DaySlot: Double] = [:]
                var handled: [DaySlot: Double] = [:]
                var byStore: [DaySlot: [String: Double]] = [:]
                var slots: Set<DaySlot>
            }
            var days: [Day] = []
            for date in calendar.dates {
                var day = Day(date: date, dayTypes: [], slots: allSlots)
                var types = Set<DayType>()
                for store in history.stores {
                    let own = calendar.dayType(of: store, on: date)
                    types.insert(own)
                    // No opening that day: the IVR queues no call, whatever the day type.
                    if calendar.hours(of: store, on: date) == StaffingCalendar.closed { continue }
                    let chain = own.fallbacks(weekend: date.weekday.isWeekend)
                    guard let used = chain.first(where: { baseline(queue, store, $0, on: date) != nil }) else {
                        if own != .closure { note("no history at all for store \(store) of queue \(label)") }
                        continue
                    }
                    if used != own {
                        note(
                            own == .override
                                ? "override days of queue \(label) are forecast as \(used.plural)"
                                : "no history for \(own.plural) of queue \(label): falling back to \(used.plural)")
                    }
                    let baseline = baseline(queue, store, used, on: date)!
                    for (slot, sum) in baseline.offered {
                        day.offered[slot, default: 0] += sum / baseline.weight
                        if keepingStores { day.byStore[slot, default: [:]][store, default: 0] += sum / baseline.weight }
                    }
                    for (slot, sum) in baseline.handleSeconds {
                        day.handleSeconds[slot, default: 0] += sum / baseline.weight
                    }
                    for (slot, sum) in baseline.handled { day.handled[slot, default: 0] += sum / baseline.weight }
                }
                day.dayTypes = types.sorted()
                days.append(day)
            }
            // A queue fed by an overnight store and a store whose calls land just after midnight
            // has slot 96 + k of date D and slot k of D + 1: the same 15 minutes. When both dates
            // are forecast, the later date's slot carries the sum, so each interval is staffed
            // once, for all its load.
            for index in days.indices.dropLast() where days[index + 1].date == days[index].date.adding(days: 1) {
                for slot in days[index].slots where slot.index >= DaySlot.perDay {
                    let into = DaySlot(slot.index - DaySlot.perDay)
                    days[index + 1].slots.insert(into)
                    days[index + 1].offered[into, default: 0] += days[index].offered.removeValue(forKey: slot) ?? 0
                    days[index + 1].handleSeconds[into, default: 0] +=
                        days[index].handleSeconds.removeValue(forKey: slot) ?? 0
                    days[index + 1].handled[into, default: 0] += days[index].handled.removeValue(forKey: slot) ?? 0
                    if let parts = days[index].byStore.removeValue(forKey: slot) {
                        days[index + 1].byStore[into, default: [:]].merge(parts, uniquingKeysWith: +)
                    }
                    days[index].slots.remove(slot)
                }
            }
            for day in days {
                for slot in day.slots.sorted() {
                    let count = day.handled[slot] ?? 0
                    let aht = count > 0 ? (day.handleSeconds[slot] ?? 0) / count : history.averageHandleTimeSeconds
                    intervals.append(
                        Interval(
                            queue: queue, date: day.date, slot: slot, dayTypes: day.dayTypes,
                            offered: day.offered[slot] ?? 0, averageHandleTimeSeconds: aht,
                            offeredByStore: day.byStore[slot] ?? [:]))
                }
            }
        }
    }
}
