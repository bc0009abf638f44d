import ContactCenter
import OperatingHours

/// What the traffic simulation takes from the flows, for the live simulator and the staffing
/// history seeder alike.
extension FlowSet {
    /// The stores that have a dialed number, each with its queue (its `kind` attribute).
    var simulatedStores: [TrafficSimulationConfiguration.Store] {
        stores.compactMap { store in
            guard let number = store.dialedNumbers.first else { return nil }
            return .init(id: store.id, dialedNumber: number, queue: store.attributes["kind"] ?? "general")
        }
    }

    /// How busy a store's day is: holidays and pre-holidays are busier, as for restaurant
    /// reservations; weekends a little.
    func trafficMultiplier(storeId: String, at instant: UTCTimestamp) -> Double {
        guard let store = store(id: storeId) else { return 1 }
        switch store.schedule.decision(at: instant.date).dayType {
        case .holiday: return 1.6
        case .preHoliday: return 1.4
        case .weekend: return 1.2
        default: return 1
        }
    }
}
