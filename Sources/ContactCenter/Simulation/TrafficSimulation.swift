import Foundation
import Primitives

/// A discrete-event simulation of a contact center's phone traffic, producing the wire messages
/// the platform would: contact events, agent events and contact trace records.
///
/// Calls arrive per store as a Poisson process whose rate follows the local hour of day and the
/// day multiplier of the ``TrafficEnvironment`` (sampled by thinning, so the rate is exact). Each
/// arrival asks the environment whether the store is open, as a real IVR asks its hook: a closed
/// store's call ends in the flow (`CONTACT_FLOW_DISCONNECT`, no queue, no agent); an open store's
/// call is queued, rings the longest-idle available agent whose routing profile serves its queue,
/// is talked (sometimes held), ends, and the agent does after-contact work. A queued caller whose
/// patience runs out first abandons or asks for a callback; the queue flow moves some waiting
/// calls to an overflow queue; agents transfer some calls to that queue or out to an external
/// number. Each continuation is a new contact of the chain (`CALLBACK`, `QUEUE_TRANSFER`,
/// `TRANSFER`, with `InitialContactId` and `PreviousContactId`, and `NextContactId` on the contact
/// it continues), as in Amazon Connect. After a contact ends its CTR is emitted; a share is
/// re-emitted later as an update, and a share is delivered twice.
///
/// Each agent has one routing profile (``TrafficSimulationConfiguration/routingProfiles``) and is
/// offered only contacts of the queues it serves; its agent events and the CTRs of its contacts
/// name that profile. A contact waits in arrival order with the others until an agent serving its
/// queue is free, so a caller of a busy queue waits while agents of other profiles sit idle.
///
/// The simulation is pure: time only moves by ``advance(to:environment:)`` and randomness comes
/// from a ``SplitMix64`` seeded from the configuration, so equal configurations (seed and start
/// included) give equal messages.
public struct TrafficSimulation: Sendable {
    /// The configuration it runs.
    public let configuration: TrafficSimulationConfiguration
    /// What happened so far.
    public internal(set) var counters = SimulationCounters()
    /// The simulated instant reached by the last ``advance(to:environment:)``.
    public private(set) var now: UTCTimestamp

    var random: SplitMix64
    /// Mixed into the contacts' and events' identifiers: a simulation started at another instant
    /// (the next run of `switchboard dev` on a kept database) does not repeat the identifiers of
    /// an earlier one, while its traffic stays what the seed gives.
    let identifierSalt: (high: UInt64, low: UInt64)
    var occurrences = OccurrenceQueue()
    var contacts: [Int: SimulatedContact] = [:]
    var nextContact = 0
    var agents: [SimulatedAgent]
    /// Queued contacts in order of arrival in their queues, all queues together.
    var waiting: [Int] = []
    /// Available agents, longest idle first.
    var idleAgents: [Int] = []
    var output: [SimulatedMessage] = []
    /// The offers since the last ``takeOffers()`` (only with ``TrafficSimulationConfiguration/recordsOffers``).
    var offers: [SimulatedOffer] = []
    /// The routing profiles in force (``TrafficSimulationConfiguration/routingProfilesInForce``)
    /// as agent events carry them; ``SimulatedAgent/profile`` indexes it.
    let routingProfiles: [AgentRoutingProfile]
    /// For each queue a profile serves, whether each profile (by index) serves it.
    let queueServers: [String: [Bool]]

    /// Creates a simulation at `configuration.start`; agents log in at once.
    public init(configuration: TrafficSimulationConfiguration) {
        self.configuration = configuration
        now = configuration.start
        random = SplitMix64(seed: configuration.seed)
        var salt = SplitMix64(
            seed: configuration.seed ^ UInt64(bitPattern: configuration.start.millisecondsSince1970))
        identifierSalt = (salt.next(), salt.next())
        let profiles = configuration.routingProfilesInForce
        routingProfiles = profiles.map { TrafficSimulation.agentRoutingProfile($0, configuration: configuration) }
        var servers: [String: [Bool]] = [:]
        for (index, profile) in profiles.enumerated() {
            for queue in profile.queues {
                servers[queue, default: Array(repeating: false, count: profiles.count)][index] = true
            }
        }
        queueServers = servers
        agents = zip(profiles.indices, configuration.agentsPerRoutingProfile).flatMap { profile, count in
            Array(repeating: profile, count: count)
        }.enumerated().map { index, profile in
            SimulatedAgent(index: index, profile: profile, instanceArn: configuration.instanceArn)
        }
        let start = configuration.start.millisecondsSince1970
        for agent in agents.indices {
            occurrences.schedule(.login(agent: agent), at: start)
        }
        for store in configuration.stores.indices {
            scheduleNextArrival(store: store, after: start)
        }
    }

    /// A contact's or an event's identifier: random, and distinct between simulations that start
    /// at different instants.
    mutating func newIdentifier() -> String {
        random.uuid(salt: identifierSalt)
    }

    /// The instant of the next thing that will happen, if any.
    public var nextInstant: UTCTimestamp? {
        occurrences.nextInstant.map { UTCTimestamp(millisecondsSince1970: $0) }
    }

    /// Runs the simulation up to and including `instant` and returns the messages produced, in
    /// time order.
    ///
    /// - Parameters:
    ///   - instant: the simulated instant to reach; earlier than ``now`` does nothing.
    ///   - environment: answers whether stores are open and how busy their day is.
    public mutating func advance(
        to instant: UTCTimestamp, environment: some TrafficEnvironment
    ) async -> [SimulatedMessage] {
        let limit = instant.millisecondsSince1970
        while let next = occurrences.popFirst(notAfter: limit) {
            now = UTCTimestamp(millisecondsSince1970: next.at)
            await handle(next.occurrence, at: next.at, environment: environment)
        }
        if instant > now { now = instant }
        let messages = output
        output.removeAll(keepingCapacity: true)
        return messages
    }

    private mutating func handle(
        _ occurrence: SimulationOccurrence, at: Int64, environment: some TrafficEnvironment
    ) async {
        switch occurrence {
        case .arrival(let store): await arrive(store: store, at: at, environment: environment)
        case .flowEnd(let contact): endInFlow(contact, at: at)
        case .enqueue(let contact): enqueue(contact, at: at)
        case .abandon(let contact): abandon(contact, at: at)
        case .queueTransfer(let contact): transferFromQueue(contact, at: at)
        case .connect(let contact): connect(contact, at: at)
        case .holdStart(let contact): hold(contact, at: at, starts: true)
        case .holdEnd(let contact): hold(contact, at: at, starts: false)
        case .disconnect(let contact): disconnect(contact, at: at)
        case .workEnd(let contact): endWork(contact, at: at)
        case .login(let agent): logIn(agent, at: at)
        case .agentReturn(let agent): returnFromCustomStatus(agent, at: at)
        case .lunch(let agent): lunchIsDue(agent, at: at)
        case .heartbeat(let agent): heartbeat(agent, at: at)
        case .shiftEnd(let agent): shiftEnds(agent, at: at)
        case .update(let record): emitUpdate(record, at: at)
        case .duplicate(let key, let value):
            counters.duplicates += 1
            counters.ctrsEmitted += 1
            emit(.contactRecord, key: key, value: Data(value), at: at)
        }
    }

    // MARK: Contacts

    private mutating func scheduleNextArrival(store: Int, after instant: Int64) {
        let peak = configuration.peakRatePerSecond
        guard peak > 0 else { return }
        let gap = Int64((random.exponential(mean: 1 / peak) * 1_000).rounded(.up))
        let at = instant + max(1, gap)
        if let end = configuration.arrivalsEnd, at >= end.millisecondsSince1970 { return }
        occurrences.schedule(.arrival(store: store), at: at)
    }

    private mutating func arrive(store: Int, at: Int64, environment: some TrafficEnvironment) async {
        scheduleNextArrival(store: store, after: at)
        let definition = configuration.stores[store]
        let instant = UTCTimestamp(millisecondsSince1970: at)
        let multiplier = min(
            configuration.maximumDayMultiplier,
            max(0, environment.dayMultiplier(storeId: definition.id, at: instant)))
        let shock = configuration.shocks?.factor(store: definition.id, at: instant) ?? 1
        let rate = configuration.baseRatePerSecond(at: instant) * multiplier * shock
        // Thinning: candidates come at the peak rate, and are kept with probability rate / peak.
        guard random.unit() * configuration.peakRatePerSecond < rate else { return }
        let isOpen = await environment.isOpen(storeId: definition.id, at: instant)
        counters.arrivals += 1
        let index = nextContact
        nextContact += 1
        let contact = SimulatedContact(
            id: newIdentifier(),
            store: store,
            customerNumber: "+8190" + String(10_000_000 + Int(random.next() % 90_000_000)),
            initiated: at,
            isOpen: isOpen,
            queue: definition.queue
        )
        contacts[index] = contact
        emitContactEvent(.initiated, contact, at: at)
        emitContactEvent(.connectedToSystem, contact, at: at)
        let ivr = Int64(configuration.ivrDuration.draw(&random)) * 1_000
        occurrences.schedule(isOpen ? .enqueue(contact: index) : .flowEnd(contact: index), at: at + ivr)
    }

    private mutating func endInFlow(_ index: Int, at: Int64) {
        guard var contact = contacts[index] else { return }
        contact.disconnected = at
        contact.disconnectReason = "CONTACT_FLOW_DISCONNECT"
        contacts[index] = nil
        counters.closedInFlow += 1
        emitContactEvent(.disconnected, contact, at: at)
        emitContactEvent(.completed, contact, at: at)
        emitRecord(contact, at: at)
    }

    mutating func enqueue(_ index: Int, at: Int64) {
        guard var contact = contacts[index] else { return }
        contact.enqueued = at
        contacts[index] = contact
        counters.queued += 1
        emitContactEvent(.queued, contact, at: at)
        waiting.append(index)
        // A callback waits for an agent: the customer is called back, nobody is on the line.
        if contact.method != "CALLBACK" {
            let patience = Int64(configuration.patience.draw(&random)) * 1_000
            occurrences.schedule(.abandon(contact: index), at: at + patience)
        }
        if contact.method == "INBOUND", random.chance(configuration.queueTransferShare) {
            let after = Int64(configuration.queueTransferAfter.draw(&random)) * 1_000
            occurrences.schedule(.queueTransfer(contact: index), at: at + after)
        }
        dispatch(at: at)
    }

    private mutating func abandon(_ index: Int, at: Int64) {
        guard var contact = contacts[index], contact.agent == nil,
            let position = waiting.firstIndex(of: index)
        else { return }
        waiting.remove(at: position)
        if random.chance(configuration.callbackShare) {
            recordOffer(contact)
            requestCallback(index, at: at)
            return
        }
        contact.disconnected = at
        contact.disconnectReason = "CUSTOMER_DISCONNECT"
        contacts[index] = nil
        counters.abandoned += 1
        recordOffer(contact)
        emitContactEvent(.disconnected, contact, at: at)
        emitContactEvent(.completed, contact, at: at)
        emitRecord(contact, at: at)
    }

    /// Counts `contact` as offered to its queue (its outcome there is decided: answered,
    /// abandoned, or a callback requested).
    private mutating func recordOffer(_ contact: SimulatedContact) {
        guard configuration.recordsOffers, let enqueued = contact.enqueued else { return }
        offers.append(
            SimulatedOffer(
                queue: TrafficSimulation.queueArn(contact.queue, instanceArn: configuration.instanceArn),
                storeId: configuration.stores[contact.store].id,
                enqueued: UTCTimestamp(millisecondsSince1970: enqueued)))
    }

    /// The contacts counted as offered since the last call, in the order their outcome was
    /// decided.
    public mutating func takeOffers() -> [SimulatedOffer] {
        defer { offers.removeAll(keepingCapacity: true) }
        return offers
    }

    /// Gives waiting contacts to idle agents: each waiting contact, oldest first, to the
    /// longest-idle agent whose routing profile serves its queue. A contact no idle agent serves
    /// keeps its place, and younger contacts of other queues may pass it.
    ///
    /// Called whenever a contact queues or an agent becomes available, so after each call no idle
    /// agent serves any waiting contact; both lists stay short (tens), so scanning them is cheap.
    mutating func dispatch(at: Int64) {
        var position = 0
        while position < waiting.count, !idleAgents.isEmpty {
            let index = waiting[position]
            guard var contact = contacts[index] else {
                waiting.remove(at: position)
                continue
            }
            guard let servers = queueServers[contact.queue],
                let slot = idleAgents.firstIndex(where: { servers[agents[$0].profile] })
            else {
                position += 1
                continue
            }
            waiting.remove(at: position)
            let agent = idleAgents.remove(at: slot)
            contact.agent = agent
            contact.assigned = at
            contacts[index] = contact
            setContactState(agent, contact: contact, state: .connecting, at: at)
            let ring = Int64(configuration.ringDuration.draw(&random)) * 1_000
            occurrences.schedule(.connect(contact: index), at: at + ring)
        }
    }

    private mutating func connect(_ index: Int, at: Int64) {
        guard var contact = contacts[index], let agent = contact.agent else { return }
        contact.connected = at
        counters.answered += 1
        recordOffer(contact)
        let talk = configuration.talkDuration.draw(&random)
        contact.talkSeconds = talk
        var end = at + Int64(talk) * 1_000
        if random.chance(configuration.holdProbability) {
            let hold = configuration.holdDuration.draw(&random)
            let startsAfter = Int64(SimulationDuration.uniform(1...max(1, talk - 1)).draw(&random))
            contact.holdSeconds = hold
            occurrences.schedule(.holdStart(contact: index), at: at + startsAfter * 1_000)
            occurrences.schedule(.holdEnd(contact: index), at: at + (startsAfter + Int64(hold)) * 1_000)
            end += Int64(hold) * 1_000
        }
        contacts[index] = contact
        setContactState(agent, contact: contact, state: .connected, at: at)
        emitContactEvent(.connectedToAgent, contact, at: at)
        occurrences.schedule(.disconnect(contact: index), at: end)
    }

    private mutating func hold(_ index: Int, at: Int64, starts: Bool) {
        guard let contact = contacts[index], let agent = contact.agent else { return }
        setContactState(agent, contact: contact, state: starts ? .connectedOnHold : .connected, at: at)
    }

    private mutating func disconnect(_ index: Int, at: Int64) {
        guard var contact = contacts[index], let agent = contact.agent else { return }
        contact.disconnected = at
        contact.disconnectReason = random.chance(0.6) ? "CUSTOMER_DISCONNECT" : "AGENT_DISCONNECT"
        let work = configuration.afterContactWork.draw(&random)
        contact.workEnd = at + Int64(work) * 1_000
        contacts[index] = contact
        if random.chance(configuration.transferShare) {
            transferByAgent(index, at: at)
            contact = contacts[index] ?? contact
        } else if random.chance(configuration.externalTransferShare) {
            contact.transferCompleted = at
            contact.transferredTo = configuration.externalTransferNumber
            contact.disconnectReason = "AGENT_DISCONNECT"
            contacts[index] = contact
            counters.externalTransfers += 1
        }
        setContactState(agent, contact: contact, state: .ended, at: at)
        emitContactEvent(.disconnected, contact, at: at)
        occurrences.schedule(.workEnd(contact: index), at: at + Int64(work) * 1_000)
    }

    private mutating func endWork(_ index: Int, at: Int64) {
        guard let contact = contacts[index], let agent = contact.agent else { return }
        contacts[index] = nil
        emitContactEvent(.completed, contact, at: at)
        emitRecord(contact, at: at)
        agentIsFree(agent, at: at)
    }

    // MARK: Records

    mutating func emitRecord(_ contact: SimulatedContact, at: Int64) {
        guard configuration.emitsMessages else {
            counters.ctrsEmitted += 1
            return
        }
        let record = contactTraceRecord(contact, lastUpdate: at)
        let value = record.jsonData()
        counters.ctrsEmitted += 1
        emit(.contactRecord, key: record.contactId, value: value, at: at)
        if random.chance(configuration.duplicateShare) {
            let delay = Int64(SimulationDuration.uniform(1...30).draw(&random)) * 1_000
            occurrences.schedule(.duplicate(key: record.contactId, value: Array(value)), at: at + delay)
        }
        if random.chance(configuration.updateShare) {
            let delay = Int64(configuration.updateDelay.draw(&random)) * 1_000
            occurrences.schedule(.update(record), at: at + delay)
        }
    }

    private mutating func emitUpdate(_ record: ContactTraceRecord, at: Int64) {
        var updated = record
        updated.lastUpdateTimestamp = TrafficSimulation.seconds(at)
        updated.attributes["followUp"] = random.chance(0.5) ? "reservation-confirmed" : "callback-done"
        counters.updates += 1
        counters.ctrsEmitted += 1
        emit(.contactRecord, key: updated.contactId, value: updated.jsonData(), at: at)
    }

    mutating func emit(_ kind: SimulatedMessage.Kind, key: String, value: Data, at: Int64) {
        output.append(
            SimulatedMessage(kind: kind, key: key, value: value, at: UTCTimestamp(millisecondsSince1970: at)))
    }
}

/// One contact in progress, in milliseconds since 1970.
struct SimulatedContact: Sendable {
    var id: String
    var store: Int
    var customerNumber: String
    var initiated: Int64
    var isOpen: Bool
    /// The queue it waits in: the store's, or the overflow queue after a transfer.
    var queue: String
    /// `INBOUND`, `CALLBACK`, `QUEUE_TRANSFER` or `TRANSFER`.
    var method = "INBOUND"
    /// The first contact of its chain; `nil` on that first contact (as Amazon Connect writes it).
    var initialId: String?
    var previousId: String?
    var nextId: String?
    var transferCompleted: Int64?
    var transferredTo: String?
    var enqueued: Int64?
    var assigned: Int64?
    var connected: Int64?
    var agent: Int?
    var talkSeconds = 0
    var holdSeconds = 0
    var disconnected: Int64?
    var disconnectReason: String?
    var workEnd: Int64?

    init(id: String, store: Int, customerNumber: String, initiated: Int64, isOpen: Bool, queue: String) {
        self.id = id
        self.store = store
        self.customerNumber = customerNumber
        self.initiated = initiated
        self.isOpen = isOpen
        self.queue = queue
    }
}
