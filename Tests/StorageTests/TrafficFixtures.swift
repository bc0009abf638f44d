import ContactCenter
import Foundation

/// Deterministic contact-center data for the ingest tests (a seeded generator, no clock).
struct TrafficFixtures {
    static let queues = [
        ("arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-reservations", "Reservations"),
        ("arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-takeout", "Takeout"),
        ("arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-english", "English"),
    ]
    static let base = UTCTimestamp(millisecondsSince1970: 1_795_000_000_000)  // 2026-11-18

    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// A contact trace record; `version` shifts `LastUpdateTimestamp` (re-emitted updates).
    mutating func contactRecord(index: Int, version: Int = 0, answered: Bool? = nil) -> ContactTraceRecord {
        let start = Self.base.adding(seconds: Int64(index) * 7)
        let queue = Self.queues[index % Self.queues.count]
        let enqueued = start.adding(seconds: 20)
        let wait = Int(random.next() % 60)
        let isAnswered = answered ?? (random.next() % 5 != 0)
        let talk = 60 + Int(random.next() % 400)
        let hold = Int(random.next() % 30)
        let acw = 10 + Int(random.next() % 60)
        let connected = enqueued.adding(seconds: Int64(wait))
        let end = isAnswered ? connected.adding(seconds: Int64(talk + hold)) : enqueued.adding(seconds: Int64(wait))
        return ContactTraceRecord(
            contactId: String(format: "c%07d-0000-4000-8000-%012d", index, index),
            initiationTimestamp: start,
            connectedToSystemTimestamp: start.adding(seconds: 1),
            disconnectTimestamp: end,
            disconnectReason: isAnswered ? "AGENT_DISCONNECT" : "CUSTOMER_DISCONNECT",
            lastUpdateTimestamp: end.adding(seconds: 120 + Int64(version) * 3_600),
            customerEndpoint: .init(address: "+8190\(String(format: "%08d", index))"),
            systemEndpoint: .init(address: "+81312345\(String(format: "%03d", index % 23))"),
            attributes: ["storeId": "store-\(index % 23)", "version": "\(version)", "language": "ja"],
            queue: .init(
                arn: queue.0,
                name: queue.1,
                enqueueTimestamp: enqueued,
                dequeueTimestamp: isAnswered ? connected : end,
                duration: wait
            ),
            agent: isAnswered
                ? .init(
                    arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a-\(index % 17)",
                    username: "agent\(index % 17)",
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
    mutating func agentEvent(index: Int) -> AgentEvent {
        let agent = index % 17
        let arn = "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a-\(agent)"
        let time = Self.base.adding(seconds: Int64(index) * 3)
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
    mutating func contactEvent(index: Int) -> ContactEvent {
        let types: [ContactEvent.EventType] = [.initiated, .queued, .connectedToAgent, .disconnected]
        return ContactEvent(
            id: String(format: "%08d-2222-4000-8000-%012d", index, index),
            time: Self.base.adding(seconds: Int64(index)),
            eventType: types[index % types.count],
            contactId: String(format: "c%07d-0000-4000-8000-%012d", index / 4, index / 4),
            queueInfo: .init(queueArn: Self.queues[0].0, enqueueTimestamp: Self.base.adding(seconds: Int64(index)))
        )
    }
}

/// SplitMix64: a tiny seeded generator, so every run produces the same data.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
