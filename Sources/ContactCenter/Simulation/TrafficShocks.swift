import Primitives

/// Days no history foresees: on a few store-days, the store's arrival rate is scaled by a factor
/// from a time of day to the end of its business day.
///
/// Two kinds, as a restaurant meets them: a **surge** (×1.6 from 11:00: a TV feature) and a
/// **slump** (×0.5 from 17:00: a storm, or a competitor's event). Which store-days have one, and
/// which kind, is drawn from ``seed``, the store's id and the business date alone: the same
/// setting gives the same shocks in any simulation of any stretch of time (the seeded history,
/// a live simulation, the replicas that estimate a backtest's oracle), while their traffic seeds
/// differ. A business day ends by 05:00 the next morning (the latest close in `flows/` is
/// 04:00), so a shock lasts from its time of day on its date until 05:00 the day after.
public struct TrafficShocks: Sendable, Hashable {
    /// One kind of shock.
    public struct Kind: Sendable, Hashable {
        /// `surge` or `slump`.
        public var name: String
        /// What the arrival rate is multiplied by.
        public var factor: Double
        /// Local minutes after midnight it starts at.
        public var fromMinute: Int
    }

    /// ×1.6 from 11:00.
    public static let surge = Kind(name: "surge", factor: 1.6, fromMinute: 11 * 60)
    /// ×0.5 from 17:00.
    public static let slump = Kind(name: "slump", factor: 0.5, fromMinute: 17 * 60)
    /// Local minutes after midnight by which every business day has ended.
    public static let businessDayEndMinute = 5 * 60

    /// The share of store-days with a shock, [0, 1]; half of them surges, half slumps.
    public var share: Double
    /// Decides which store-days have one.
    public var seed: UInt64
    /// The stores' offset from UTC, seconds (Japan: 9 h).
    public var utcOffsetSeconds: Int

    /// - Parameters:
    ///   - share: The share of store-days with a shock (clamped to [0, 1]).
    ///   - seed: Decides which.
    ///   - utcOffsetSeconds: The stores' offset from UTC.
    public init(share: Double, seed: UInt64, utcOffsetSeconds: Int = 9 * 3_600) {
        self.share = min(1, max(0, share.isFinite ? share : 0))
        self.seed = seed
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The largest factor any shock applies (what the arrival sampling must allow for).
    public var maximumFactor: Double { share > 0 ? max(1, Self.surge.factor) : 1 }

    /// The shock of `store` on its business date `date`, if it has one.
    public func shock(store: String, on date: CivilDate) -> Kind? {
        guard share > 0 else { return nil }
        var random = SplitMix64(
            seed: seed ^ Self.fnv1a(store) ^ UInt64(bitPattern: Int64(date.dayNumber)) &* 0x9E37_79B9)
        guard random.unit() < share else { return nil }
        return random.unit() < 0.5 ? Self.surge : Self.slump
    }

    /// The factor on `store`'s arrival rate at `instant`: its business day's shock once its time
    /// of day has come, until 05:00 the next morning; otherwise 1.
    public func factor(store: String, at instant: UTCTimestamp) -> Double {
        guard share > 0 else { return 1 }
        let local = instant.secondsSince1970 + Int64(utcOffsetSeconds)
        let dayNumber = Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
        let minute = Int((((local % 86_400) + 86_400) % 86_400) / 60)
        if minute < Self.businessDayEndMinute {
            // Still the business day that began yesterday, past any shock's time of day.
            return shock(store: store, on: CivilDate(dayNumber: dayNumber - 1))?.factor ?? 1
        }
        guard let kind = shock(store: store, on: CivilDate(dayNumber: dayNumber)), minute >= kind.fromMinute else {
            return 1
        }
        return kind.factor
    }

    /// FNV-1a of a store id: stable across runs and platforms, unlike `Hasher`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
