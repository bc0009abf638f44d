/// The forecast per queue × business date × 15-minute slot: offered contacts and AHT, from each
/// store's same-day-type weighted history.
///
/// For a date D and a queue Q, each store S feeding Q contributes its weighted average of the
/// offered contacts per slot over its baseline days of S's day type on D (a chain's founding day
/// is a holiday for its stores only); the contributions add up. AHT is the handle-time-weighted
/// mean over the same days. Closures contribute nothing; a day type with no history falls back
/// (`StaffingDayType.fallbacks`) and says so in `notes`, never a silent zero.
public struct StaffingForecast: Sendable {
    /// One queue's forecast for one slot.
    public struct Slot: Sendable, Equatable {
        public var queue: String
        public var date: String
        /// 15-minute slots from the business day's midnight (96 and later: past midnight).
        public var slot: Int
        /// The day types of the stores feeding the queue that day, e.g. `holiday+weekday`.
        public var dayTypes: String
        /// Offered contacts (answered + abandoned + callbacks).
        public var offered: Double
        /// AHT, seconds (nil when the queue never handled a contact).
        public var averageHandleTimeSeconds: Double?
    }

    /// The slots, by queue, date, slot.
    public private(set) var slots: [Slot] = []
    /// Fallbacks and gaps, one line each, deduplicated.
    public private(set) var notes: [String] = []

    /// Forecasts `dates` for `queues`, or for the one queue `only` of them: the forecasts of
    /// each queue alone, in the order of their ids, make up the forecast of all of them.
    /// - Parameters:
    ///   - queues: the queues to forecast and their history.
    ///   - baselines: the weighted history per queue, store and day type.
    ///   - dates: the business dates, `YYYY-MM-DD`, in order.
    ///   - dayTypes: each store's day type per date.
    ///   - weekendDates: the dates that fall on Saturday or Sunday (override days follow them).
    ///   - only: the id of the one queue to forecast.
    public init(
        queues: [String: StaffingQueueHistory], baselines: [StaffingBaselineKey: StaffingBaseline],
        dates: [String], dayTypes: [String: [String: StaffingDayType]], weekendDates: Set<String>,
        only: String? = nil
    ) {
        var noted = Set<String>()
        func note(_ line: String) {
            if noted.insert(line).inserted { notes.append(line) }
        }
        for queue in only.map({ [$0] }) ?? queues.keys.sorted() {
            guard let history = queues[queue] else { continue }
            let label = history.name ?? queue
            var allSlots = Set<Int>()
            for (key, baseline) in baselines where key.queue == queue {
                allSlots.formUnion(baseline.offered.keys)
            }
            let slotRange = allSlots.sorted()
            if history.averageHandleTimeSeconds == nil {
                note("queue \(label): no handled contacts in its history: AHT unknown, no staffing")
            }
            for date in dates {
                var offered: [Int: Double] = [:]
                var handleSeconds: [Int: Double] = [:]
                var handled: [Int: Double] = [:]
                var types = Set<StaffingDayType>()
                for store in history.stores {
                    let own = dayTypes[store]?[date] ?? (weekendDates.contains(date) ? .weekend : .weekday)
                    types.insert(own)
                    let chain = own.fallbacks(weekend: weekendDates.contains(date))
                    guard
                        let used = chain.first(where: {
                            (baselines[StaffingBaselineKey(queue: queue, store: store, dayType: $0)]?.weight ?? 0) > 0
                        })
                    else {
                        if own != .closure { note("no history at all for store \(store) of queue \(label)") }
                        continue
                    }
                    if used != own {
                        note(
                            own == .override
                                ? "override days of queue \(label) are forecast as \(used.plural)"
                                : "no history for \(own.plural) of queue \(label): falling back to \(used.plural)")
                    }
                    let baseline = baselines[StaffingBaselineKey(queue: queue, store: store, dayType: used)]!
                    for (slot, sum) in baseline.offered { offered[slot, default: 0] += sum / baseline.weight }
                    for (slot, sum) in baseline.handleSeconds {
                        handleSeconds[slot, default: 0] += sum / baseline.weight
                    }
                    for (slot, sum) in baseline.handled { handled[slot, default: 0] += sum / baseline.weight }
                }
                let typeLabel = types.sorted().map(\.rawValue).joined(separator: "+")
                for slot in slotRange {
                    let count = handled[slot] ?? 0
                    let aht = count > 0 ? (handleSeconds[slot] ?? 0) / count : history.averageHandleTimeSeconds
                    slots.append(
                        Slot(
                            queue: queue, date: date, slot: slot, dayTypes: typeLabel, offered: offered[slot] ?? 0,
                            averageHandleTimeSeconds: aht))
                }
            }
        }
    }

    /// `HH:MM` of a slot from the business day's midnight (`25:00` past midnight).
    public static func clock(slot: Int) -> String {
        let minutes = slot * 15
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
