/// What the ``TrafficSimulation`` simulates: stores, agents, arrival rates and the
/// distributions of a call's phases.
public struct TrafficSimulationConfiguration: Sendable {
    /// One restaurant whose phone the contact center answers.
    public struct Store: Sendable, Hashable {
        /// The store's id, as in `flows/` (`Attributes["storeId"]` of its contacts).
        public var id: String
        /// The number callers dial (`SystemEndpoint.Address`).
        public var dialedNumber: String
        /// The queue its open-hours calls wait in; several stores may share one.
        public var queue: String

        /// Creates a store.
        public init(id: String, dialedNumber: String, queue: String) {
            self.id = id
            self.dialedNumber = dialedNumber
            self.queue = queue
        }
    }

    /// The restaurant shape of a day: calls per local hour relative to the base rate
    /// (quiet at night, peaks before lunch and in the evening).
    public static let restaurantDay: [Double] = [
        0.1, 0.05, 0.05, 0.05, 0.05, 0.1, 0.2, 0.4, 0.6, 0.9, 1.3, 1.8,
        1.6, 1.0, 0.8, 0.9, 1.3, 1.9, 2.0, 1.6, 1.1, 0.7, 0.4, 0.2,
    ]

    /// The stores.
    public var stores: [Store]
    /// Agents, all logged in at the start; each serves the queues of its routing profile
    /// (``routingProfiles``).
    public var agentCount: Int
    /// The routing profiles agents are assigned to, each with the queues it serves and its
    /// share of ``agentCount``; empty for one profile serving every queue
    /// (``routingProfilesInForce``).
    ///
    /// Agents get exact counts by share (``apportion(_:shares:)``) and are assigned in profile
    /// order: the first agents to the first profile, and so on.
    /// ``restaurantProfiles(stores:overflowQueue:)`` builds a restaurant center's.
    public var routingProfiles: [RoutingProfile] = []
    /// The seed: the same seed and configuration give the same messages.
    public var seed: UInt64
    /// The simulated instant the simulation starts at (agents log in then).
    public var start: UTCTimestamp
    /// No arrivals at or after this instant (contacts in progress still finish); `nil` for none.
    public var arrivalsEnd: UTCTimestamp?
    /// Base arrivals per store per hour, multiplied by ``hourlyShape`` and the day multiplier.
    public var callsPerHourPerStore: Double
    /// 24 multipliers of the base rate, by local hour of day.
    public var hourlyShape: [Double]
    /// The offset of the stores' local time from UTC, in seconds (Japan: 9 h).
    public var utcOffsetSeconds: Int
    /// The largest day multiplier the environment may return (larger values are clamped).
    public var maximumDayMultiplier: Double
    /// Store-days whose rate a shock scales from a time of day on (``TrafficShocks``); nil: none.
    public var shocks: TrafficShocks? = nil
    /// Whether the simulation keeps a ``SimulatedOffer`` per contact offered to a queue
    /// (``TrafficSimulation/takeOffers()``): what a backtest's oracle counts.
    public var recordsOffers = false
    /// Whether the simulation emits its wire messages; without them it only moves contacts and
    /// agents (and records offers): the oracle's replicas need nothing else.
    public var emitsMessages = true
    /// Seconds from the start of a contact to its queueing or to its end in the flow.
    public var ivrDuration: SimulationDuration
    /// How long a queued caller waits before hanging up.
    public var patience: SimulationDuration
    /// Seconds an agent's phone rings before the call connects.
    public var ringDuration: SimulationDuration
    /// Talk time, hold excluded.
    public var talkDuration: SimulationDuration
    /// The share of answered calls put on hold once.
    public var holdProbability: Double
    /// The length of a hold.
    public var holdDuration: SimulationDuration
    /// After-contact work.
    public var afterContactWork: SimulationDuration
    /// The share of callers out of patience who ask for a callback instead of hanging up.
    public var callbackShare: Double
    /// Seconds from the callback request until the `CALLBACK` contact is queued.
    public var callbackDelay: SimulationDuration
    /// The share of queued inbound calls the queue flow moves to ``overflowQueue`` after
    /// ``queueTransferAfter`` if no agent answered by then.
    public var queueTransferShare: Double
    /// Seconds in queue before such a queue transfer.
    public var queueTransferAfter: SimulationDuration
    /// The share of answered calls the agent transfers to ``overflowQueue``.
    public var transferShare: Double
    /// The share of answered calls the agent transfers out to ``externalTransferNumber``.
    public var externalTransferShare: Double
    /// The queue of queue and agent transfers; the agents whose routing profile lists it serve it.
    public var overflowQueue: String
    /// Where external transfers go (a reservation centre outside Amazon Connect).
    public var externalTransferNumber: String
    /// The chance that an agent takes a "Break" after a contact.
    public var breakProbability: Double
    /// The length of a break.
    public var breakDuration: SimulationDuration
    /// When each agent takes "Lunch", in seconds after login; `nil` for no lunch.
    public var lunchAfter: SimulationDuration?
    /// The length of lunch.
    public var lunchDuration: SimulationDuration
    /// The shift length: agents log out when it ends (after finishing a contact); `nil` for no end.
    public var shiftSeconds: Int?
    /// Seconds between an agent's heartbeats (Amazon Connect: 120).
    public var heartbeatSeconds: Int
    /// The share of CTRs re-emitted later as an update (later `LastUpdateTimestamp`, changed attribute).
    public var updateShare: Double
    /// How long after the first copy an update is emitted.
    public var updateDelay: SimulationDuration
    /// The share of CTRs delivered twice, byte for byte.
    public var duplicateShare: Double
    /// The Amazon Connect instance the ARNs name.
    public var instanceArn: String

    /// Creates a configuration with realistic defaults for everything but the stores.
    public init(
        stores: [Store],
        agentCount: Int = 12,
        seed: UInt64 = 1,
        start: UTCTimestamp,
        arrivalsEnd: UTCTimestamp? = nil,
        callsPerHourPerStore: Double = 6,
        hourlyShape: [Double] = TrafficSimulationConfiguration.restaurantDay,
        utcOffsetSeconds: Int = 9 * 3_600
    ) {
        self.stores = stores
        self.agentCount = agentCount
        self.seed = seed
        self.start = start
        self.arrivalsEnd = arrivalsEnd
        self.callsPerHourPerStore = callsPerHourPerStore
        self.hourlyShape = hourlyShape.count == 24 ? hourlyShape : Array(repeating: 1, count: 24)
        self.utcOffsetSeconds = utcOffsetSeconds
        maximumDayMultiplier = 3
        ivrDuration = .uniform(5...20)
        patience = .exponential(mean: 60, minimum: 3, maximum: 900)
        ringDuration = .uniform(2...6)
        talkDuration = .exponential(mean: 150, minimum: 20, maximum: 1_800)
        holdProbability = 0.2
        holdDuration = .exponential(mean: 30, minimum: 5, maximum: 300)
        afterContactWork = .exponential(mean: 30, minimum: 5, maximum: 300)
        callbackShare = 0.25
        callbackDelay = .uniform(30...180)
        queueTransferShare = 0.1
        queueTransferAfter = .uniform(30...90)
        transferShare = 0.05
        externalTransferShare = 0.02
        overflowQueue = "Overflow"
        externalTransferNumber = "+81570000123"
        breakProbability = 0.03
        breakDuration = .uniform(300...900)
        lunchAfter = .uniform(10_800...18_000)
        lunchDuration = .fixed(2_700)
        shiftSeconds = nil
        heartbeatSeconds = 120
        updateShare = 0.05
        updateDelay = .uniform(60...3_600)
        duplicateShare = 0.02
        instanceArn = "arn:aws:connect:ap-northeast-1:123456789012:instance/5a1e0b6c-5b0a-4f0e-9c1d-000000000001"
    }

    /// The largest arrival rate of one store, in calls per second, for thinning.
    var peakRatePerSecond: Double {
        callsPerHourPerStore * (hourlyShape.max() ?? 1) * maximumDayMultiplier * (shocks?.maximumFactor ?? 1) / 3_600
    }

    /// The arrival rate of a store at `instant` before the day multiplier, in calls per second.
    func baseRatePerSecond(at instant: UTCTimestamp) -> Double {
        let local = instant.secondsSince1970 + Int64(utcOffsetSeconds)
        let hour = Int(((local % 86_400) + 86_400) % 86_400 / 3_600)
        return callsPerHourPerStore * hourlyShape[hour] / 3_600
    }
}
