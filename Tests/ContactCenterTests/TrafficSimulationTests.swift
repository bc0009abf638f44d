import ContactCenter
import Foundation
import Testing

/// Stores whose id starts with "closed" are closed; every other store is open.
private struct FixedHours: TrafficEnvironment {
    func isOpen(storeId: String, at instant: UTCTimestamp) async -> Bool { !storeId.hasPrefix("closed") }
}

@Suite("Traffic simulation")
struct TrafficSimulationTests {
    static let start = UTCTimestamp(iso8601: "2026-11-20T00:00:00Z")!
    static let arrivalHours = 4.0
    static let callsPerHour = 30.0
    static let stores = [
        TrafficSimulationConfiguration.Store(id: "shibuya", dialedNumber: "+81355500101", queue: "italian"),
        TrafficSimulationConfiguration.Store(id: "ebisu", dialedNumber: "+81355500102", queue: "french"),
        TrafficSimulationConfiguration.Store(id: "ueno", dialedNumber: "+81355500104", queue: "izakaya"),
        TrafficSimulationConfiguration.Store(id: "closed-ginza", dialedNumber: "+81355500105", queue: "bar"),
    ]

    static func configuration(seed: UInt64 = 42, start: UTCTimestamp = start) -> TrafficSimulationConfiguration {
        var configuration = TrafficSimulationConfiguration(
            stores: stores,
            agentCount: 4,
            seed: seed,
            start: start,
            arrivalsEnd: start.adding(seconds: Int64(arrivalHours * 3_600)),
            callsPerHourPerStore: callsPerHour,
            hourlyShape: Array(repeating: 1, count: 24)
        )
        configuration.shiftSeconds = 6 * 3_600
        return configuration
    }

    /// Runs arrivals for four hours, then lets every contact, update and duplicate finish.
    static func run(
        seed: UInt64 = 42, start: UTCTimestamp = start
    ) async -> (messages: [SimulatedMessage], counters: SimulationCounters) {
        var simulation = TrafficSimulation(configuration: configuration(seed: seed, start: start))
        var messages: [SimulatedMessage] = []
        for hour in 1...8 {
            messages += await simulation.advance(
                to: start.adding(seconds: Int64(hour) * 3_600), environment: FixedHours())
        }
        return (messages, simulation.counters)
    }

    @Test func recordsDecodeAndFollowTheRules() async throws {
        let (messages, counters) = await Self.run()
        let records = try messages.filter { $0.kind == .contactRecord }.map {
            try ContactTraceRecord(jsonData: $0.value)
        }
        #expect(records.count == counters.ctrsEmitted)
        #expect(!records.isEmpty)
        for record in records {
            #expect(record.storeId != nil)
            if record.storeId?.hasPrefix("closed") == true {
                #expect(record.queue == nil)
                #expect(record.agent == nil)
                #expect(record.disconnectReason == "CONTACT_FLOW_DISCONNECT")
            } else {
                #expect(record.queue?.enqueueTimestamp != nil)
            }
            if record.isAbandoned {
                #expect(record.agent == nil)
                #expect(record.queue?.enqueueTimestamp != nil)
            }
        }
        #expect(counters.abandoned > 0)
        #expect(counters.answered > 0)
        #expect(counters.closedInFlow > 0)
        let firstCopies = Set(records.map(\.contactId))
        #expect(firstCopies.count == counters.arrivals + Self.continuations(counters))
        #expect(Set(records.filter(\.isAbandoned).map(\.contactId)).count == counters.abandoned)
    }

    /// Contacts that continue a call: callbacks, queue transfers, agent transfers.
    static func continuations(_ counters: SimulationCounters) -> Int {
        counters.callbacks + counters.queueTransfers + counters.transfers
    }

    @Test("chains look like Connect's: InitialContactId null on first contacts, next and previous linked")
    func chains() async throws {
        let (messages, counters) = await Self.run()
        var latest: [String: ContactTraceRecord] = [:]
        for message in messages where message.kind == .contactRecord {
            let record = try ContactTraceRecord(jsonData: message.value)
            if let kept = latest[record.contactId], kept.lastUpdateTimestamp > record.lastUpdateTimestamp { continue }
            latest[record.contactId] = record
        }
        #expect(counters.callbacks > 0 && counters.queueTransfers > 0 && counters.transfers > 0)
        #expect(counters.externalTransfers > 0)
        var methods: [String: Int] = [:]
        for record in latest.values {
            methods[record.initiationMethod ?? "", default: 0] += 1
            if record.initiationMethod == "INBOUND" {
                #expect(record.initialContactId == nil && record.previousContactId == nil)
            } else {
                let previous = try #require(latest[record.previousContactId ?? ""], "\(record.contactId)'s previous")
                #expect(previous.nextContactId == record.contactId)
                #expect(record.initialContactId == (previous.initialContactId ?? previous.contactId))
                #expect(record.queue?.enqueueTimestamp != nil)
            }
            if let next = record.nextContactId {
                #expect(latest[next]?.previousContactId == record.contactId)
                #expect(!record.isAbandoned)
            }
            if record.transferCompletedTimestamp != nil {
                #expect(record.isAnswered && record.transferredToEndpoint?.address != nil)
            }
        }
        #expect(methods["INBOUND"] == counters.arrivals)
        #expect(methods["CALLBACK"] == counters.callbacks)
        #expect(methods["QUEUE_TRANSFER"] == counters.queueTransfers)
        #expect(methods["TRANSFER"] == counters.transfers)
        #expect(latest.values.filter { $0.transferCompletedTimestamp != nil }.count == counters.externalTransfers)
    }

    @Test func totalsMatchTheConfiguredVolume() async throws {
        let (messages, counters) = await Self.run()
        let expected = Self.callsPerHour * Self.arrivalHours * Double(Self.stores.count)
        #expect(abs(Double(counters.arrivals) - expected) < expected * 0.2)
        let continuations = Self.continuations(counters)
        #expect(counters.closedInFlow + counters.queued == counters.arrivals + continuations)
        #expect(
            counters.answered + counters.abandoned + counters.callbacks + counters.queueTransfers == counters.queued)
        let records = messages.filter { $0.kind == .contactRecord }
        #expect(records.count == counters.arrivals + continuations + counters.updates + counters.duplicates)
        #expect(counters.updates > 0)
        #expect(counters.duplicates > 0)
        // Closed stores get a quarter of the calls.
        let closedShare = Double(counters.closedInFlow) / Double(counters.arrivals)
        #expect(closedShare > 0.15 && closedShare < 0.35)
        let times = messages.map(\.at)
        #expect(times == times.sorted())
    }

    @Test func agentEventsDecodeAndHeartbeatEvery120Seconds() async throws {
        let (messages, _) = await Self.run()
        let events = try messages.filter { $0.kind == .agentEvent }.map { try AgentEvent(jsonData: $0.value) }
        let byAgent = Dictionary(grouping: events, by: \.agentArn)
        #expect(byAgent.count == 4)
        for (_, agentEvents) in byAgent {
            #expect(agentEvents.first?.eventType == .login)
            #expect(agentEvents.last?.eventType == .logout)
            let login = agentEvents[0].eventTimestamp
            let beats = agentEvents.filter { $0.eventType == .heartBeat }.map(\.eventTimestamp)
            #expect(beats.count >= 170)
            for (offset, beat) in beats.enumerated() {
                #expect(beat.milliseconds(since: login) == Int64(offset + 1) * 120_000)
            }
            let statuses = Set(agentEvents.compactMap { $0.currentSnapshot?.status?.name })
            #expect(statuses.contains("Available"))
        }
        let contactEvents = try messages.filter { $0.kind == .contactEvent }.map {
            try ContactEvent(jsonData: $0.value)
        }
        #expect(contactEvents.contains { $0.eventType == .connectedToAgent })
    }

    @Test func sameSeedSameMessages() async throws {
        let first = await Self.run(seed: 7)
        let second = await Self.run(seed: 7)
        let other = await Self.run(seed: 8)
        #expect(first.messages == second.messages)
        #expect(first.counters == second.counters)
        #expect(first.messages != other.messages)
    }

    @Test("a run started later repeats the seed's traffic under new contact and event ids")
    func laterStartNewIdentifiers() async throws {
        // A week later under a flat hourly shape and fixed hours: the same arrivals and outcomes.
        let first = await Self.run(seed: 7)
        let later = await Self.run(seed: 7, start: Self.start.adding(seconds: 7 * 86_400))
        #expect(first.counters == later.counters)
        #expect(first.messages.count == later.messages.count)
        // Agents keep their ARNs (the agent events' keys); contacts get new ids.
        let contactIds = { (messages: [SimulatedMessage]) in Set(messages.filter { $0.kind != .agentEvent }.map(\.key))
        }
        let firstContacts = contactIds(first.messages)
        let laterContacts = contactIds(later.messages)
        #expect(firstContacts.count > 100)
        #expect(firstContacts.intersection(laterContacts).count == 0)
        let eventIds = { (messages: [SimulatedMessage]) in
            Set(
                messages.filter { $0.kind == .contactEvent }.compactMap { try? ContactEvent(jsonData: $0.value).id })
        }
        let firstEvents = eventIds(first.messages)
        #expect(!firstEvents.isEmpty)
        #expect(firstEvents.intersection(eventIds(later.messages)).count == 0)
    }
}
