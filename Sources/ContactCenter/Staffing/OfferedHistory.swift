import Primitives

/// Contacts offered per business date, queue and 15-minute slot, over every store: what a
/// backtest compares its forecasts with.
public struct OfferedHistory: Sendable, Equatable {
    /// A queue's slot.
    public struct QueueSlot: Hashable, Sendable {
        /// The queue's id.
        public var queue: String
        /// The slot of the business day.
        public var slot: DaySlot

        /// `queue`'s `slot`.
        public init(queue: String, slot: DaySlot) {
            self.queue = queue
            self.slot = slot
        }
    }

    private var days: [CivilDate: [QueueSlot: Double]] = [:]

    /// An empty history.
    public init() {}

    /// Adds `offered` contacts to `queue`'s `slot` on `date`.
    public mutating func add(_ offered: Double, queue: String, slot: DaySlot, on date: CivilDate) {
        days[date, default: [:]][QueueSlot(queue: queue, slot: slot), default: 0] += offered
    }

    /// The contacts offered on `date`, per queue and slot (empty for a date without any).
    public func day(_ date: CivilDate) -> [QueueSlot: Double] {
        days[date] ?? [:]
    }
}
