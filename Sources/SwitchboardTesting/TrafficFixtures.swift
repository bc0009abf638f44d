import ContactCenter
import Foundation
import Primitives

/// Deterministic contact-center data for the tests and the benchmarks (a seeded SplitMix64, no
/// clock): the one generator of synthetic CTRs, agent events and contact events.
public struct TrafficFixtures {
    /// The shape of the generated CTRs.
    public struct Profile: Sendable {
        /// Seconds between two contacts' initiation.
        public var spacingSeconds: Int64
        /// The queues (ARN, name) contacts are spread over.
        public var queues: [(arn: String, name: String)]
        /// Agents who answer.
        public var agents: Int
        /// Longest queue wait, seconds.
        public var maximumWait: Int
        /// One contact in this many is abandoned.
        public var abandonEvery: Int
        /// Seconds between versions of a re-emitted CTR.
        public var versionSeconds: Int64
        /// Realistic IVR attributes (party size, intent, language mix): ~2.5–3 KB records.
        public var richAttributes: Bool

        /// Small records with three queues: what the ingest and analyst tests assert on.
        public static let tests = Profile(
            spacingSeconds: 7, queues: TrafficFixtures.queues, agents: 17, maximumWait: 60, abandonEvery: 5,
            versionSeconds: 3_600, richAttributes: false)

        /// Realistic records for `make bench-ingest` (five queues, 40 agents, IVR attributes).
        public static let benchmark = Profile(
            spacingSeconds: 3,
            queues: ["Reservations", "Takeout", "English", "Groups", "Complaints"].enumerated().map {
                ("arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-\($0.offset)", $0.element)
            },
            agents: 40, maximumWait: 90, abandonEvery: 6, versionSeconds: 86_400, richAttributes: true)
    }

    public static let queues = [
        (arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-reservations", name: "Reservations"),
        (arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-takeout", name: "Takeout"),
        (arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-english", name: "English"),
    ]
    public static let base = UTCTimestamp(millisecondsSince1970: 1_795_000_000_000)  // 2026-11-18

    /// The instant of the ``base`` weekday and time of day at least `days` days before `now`:
    /// records generated from there fall in the current or the previous month for a week, as a
    /// live stream's do (the ingest keeps the bytes as received only of older rows, which the
    /// retention horizon may refuse: `IngestDecoder.receivedCutoff(now:)`).
    public static func recentBase(now: UTCTimestamp, days: Int64 = 8) -> UTCTimestamp {
        let week: Int64 = 7 * 86_400_000
        let latest = now.millisecondsSince1970 - days * 86_400_000
        let difference = latest - base.millisecondsSince1970
        let weeks = difference / week - (difference % week < 0 ? 1 : 0)
        return UTCTimestamp(millisecondsSince1970: base.millisecondsSince1970 + weeks * week)
    }

    public var random: SplitMix64
    public let profile: Profile
    /// The first record's time (the contacts are spaced by the profile's seconds from there).
    public let base: UTCTimestamp

    public init(seed: UInt64, profile: Profile = .tests, base: UTCTimestamp = TrafficFixtures.base) {
        random = SplitMix64(seed: seed)
        self.profile = profile
        self.base = base
    }

    private mutating func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// A contact trace record; `version` shifts `LastUpdateTimestamp` (re-emitted updates).
    public mutating func contactRecord(index: Int, version: Int = 0, answered: Bool? = nil) -> ContactTraceRecord {
        let start = base.adding(seconds: Int64(index) * profile.spacingSeconds)
        let store = index % 23
        let queue = profile.queues[(profile.richAttributes ? store : index) % profile.queues.count]
        let enqueued = start.adding(seconds: 20)
        let wait = next(profile.maximumWait)
        let isAnswered = answered ?? (next(profile.abandonEvery) != 0)
        let talk = 60 + next(400)
        let hold = next(30)
        let acw = 10 + next(60)
        let connected = enqueued.adding(seconds: Int64(wait))
        let end = isAnswered ? connected.adding(seconds: Int64(talk + hold)) : connected
        let agent = profile.richAttributes ? next(profile.agents) : index % profile.agents
        var attributes = ["storeId": "store-\(store)", "version": "\(version)", "language": "ja"]
        if profile.richAttributes {
            attributes["language"] = next(5) == 0 ? "en" : "ja"
            attributes["partySize"] = String(1 + next(8))
            attributes["intent"] = ["reservation", "takeout", "question"][next(3)]
        }
        return ContactTraceRecord(
            contactId: String(format: "c%07d-0000-4000-8000-%012d", index, index),
            initiationTimestamp: start,
            connectedToSystemTimestamp: start.adding(seconds: 1),
            disconnectTimestamp: end,
            disconnectReason: isAnswered ? "AGENT_DISCONNECT" : "CUSTOMER_DISCONNECT",
            lastUpdateTimestamp: end.adding(seconds: 120 + Int64(version) * profile.versionSeconds),
            customerEndpoint: .init(address: "+8190\(String(format: "%08d", index % 100_000_000))"),
            systemEndpoint: .init(address: "+81312345\(String(format: "%03d", store))"),
            attributes: attributes,
            queue: .init(
                arn: queue.arn,
                name: queue.name,
                enqueueTimestamp: enqueued,
                dequeueTimestamp: connected,
                duration: wait
            ),
            agent: isAnswered
                ? .init(
                    arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a-\(agent)",
                    username: "agent\(agent)",
                    connectedToAgentTimestamp: connected,
                    agentInteractionDuration: talk,
                    afterContactWorkStartTimestamp: end,
                    afterContactWorkEndTimestamp: end.adding(seconds: Int64(acw)),
                    afterContactWorkDuration: acw,
                    customerHoldDuration: hold,
                    numberOfHolds: hold > 0 ? 1 : 0,
                    longestHoldDuration: hold,
                    routingProfile: .init(arn: nil, name: "Basic")
                ) : nil
        )
    }

    /// An agent event for agent `agent` at step `step`.
    public mutating func agentEvent(index: Int) -> AgentEvent {
        let agent = index % 17
        let arn = "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a-\(agent)"
        let time = base.adding(seconds: Int64(index) * 3)
        let routable = index % 3 != 0
        return AgentEvent(
            agentArn: arn,
            eventId: String(format: "e%07d-1111-4000-8000-%012d", index, index),
            eventTimestamp: time,
            eventType: index % 10 == 0 ? .heartBeat : .stateChange,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(
                    name: routable ? "Available" : "Break", type: routable ? .routable : .custom, startTimestamp: time),
                configuration: AgentConfiguration(username: "agent\(agent)"),
                contacts: []
            )
        )
    }

    /// A contact event.
    public mutating func contactEvent(index: Int) -> ContactEvent {
        let types: [ContactEvent.EventType] = [.initiated, .queued, .connectedToAgent, .disconnected]
        return ContactEvent(
            id: String(format: "%08d-2222-4000-8000-%012d", index, index),
            time: base.adding(seconds: Int64(index)),
            eventType: types[index % types.count],
            contactId: String(format: "c%07d-0000-4000-8000-%012d", index / 4, index / 4),
            queueInfo: .init(queueArn: Self.queues[0].arn, enqueueTimestamp: base.adding(seconds: Int64(index)))
        )
    }
}
