import ContactCenter
import Storage

/// Contacts written by hand for the analyst views: a morning at a bistro (every kind of contact
/// Connect's definitions tell apart, in one 15-minute interval) and a night at an izakaya (calls
/// after midnight filed by the business day).
///
/// Every contact starts at `base + at` seconds, is queued 20 s later for `wait` seconds, and an
/// agent connects at the dequeue (outbound: 5 s after the start). The expected tables in
/// `AnalystViewTests` are derived from the values here, contact by contact.
enum AnalystFixtures {
    /// 2026-11-18T01:00:00Z: 10:00 on a Wednesday in Tokyo, the start of a 15-minute interval.
    static let base = UTCTimestamp(millisecondsSince1970: 1_794_963_600_000)

    static let reservations = (
        arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-res", name: "Reservations"
    )
    static let takeout = (arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-take", name: "Takeout")
    static let outbound = (
        arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-out", name: "Outbound"
    )

    struct Agent {
        var arn: String
        var username: String
        var hierarchy: AgentHierarchyGroups?
    }

    static let hanako = Agent(
        arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/hanako", username: "hanako",
        hierarchy: AgentHierarchyGroups(
            level1: .init(arn: nil, name: "Kanto"), level2: .init(arn: nil, name: "Shibuya"),
            level3: .init(arn: nil, name: "Reservations team")))
    static let taro = Agent(
        arn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/taro", username: "taro",
        hierarchy: AgentHierarchyGroups(
            level1: .init(arn: nil, name: "Kanto"), level2: .init(arn: nil, name: "Shinjuku")))

    /// One contact record.
    static func record(
        _ id: String, at second: Int64, method: String = "INBOUND", initial: String? = nil, next: String? = nil,
        store: String = "test-bistro", queue: (arn: String, name: String)? = reservations, wait: Int? = nil,
        agent: Agent? = nil, talk: Int = 0, hold: Int = 0, acw: Int = 0, attempts: Int, reason: String?,
        transferredTo: String? = nil
    ) -> ContactTraceRecord {
        let start = base.adding(seconds: second)
        let enqueued = wait.map { _ in start.adding(seconds: 20) }
        let dequeued = wait.flatMap { wait in enqueued?.adding(seconds: Int64(wait)) }
        let connected = agent.map { _ in dequeued ?? start.adding(seconds: 5) }
        let end = (connected ?? dequeued ?? start.adding(seconds: 30)).adding(seconds: Int64(talk + hold))
        return ContactTraceRecord(
            contactId: id,
            initialContactId: initial,
            previousContactId: initial,
            nextContactId: next,
            initiationMethod: method,
            initiationTimestamp: start,
            connectedToSystemTimestamp: start,
            disconnectTimestamp: end,
            disconnectReason: reason,
            lastUpdateTimestamp: end.adding(seconds: Int64(acw) + 60),
            customerEndpoint: .init(address: "+819012345678"),
            systemEndpoint: .init(address: "+81355500102"),
            attributes: ["storeId": store],
            queue: queue.map {
                .init(
                    arn: $0.arn, name: $0.name, enqueueTimestamp: enqueued, dequeueTimestamp: dequeued, duration: wait)
            },
            agent: agent.map {
                .init(
                    arn: $0.arn, username: $0.username, connectedToAgentTimestamp: connected,
                    agentInteractionDuration: talk, afterContactWorkStartTimestamp: end,
                    afterContactWorkEndTimestamp: end.adding(seconds: Int64(acw)), afterContactWorkDuration: acw,
                    customerHoldDuration: hold, numberOfHolds: hold > 0 ? 1 : 0, longestHoldDuration: hold,
                    routingProfile: .init(arn: nil, name: "Basic"), hierarchyGroups: $0.hierarchy)
            },
            agentConnectionAttempts: attempts,
            transferCompletedTimestamp: transferredTo.map { _ in end },
            transferredToEndpoint: transferredTo.map { .init(address: $0) }
        )
    }

    /// The bistro's morning: 14 contact records of 11 calls, all queued in 01:00–01:15Z.
    static let morning: [ContactTraceRecord] = [
        // A1: answered after 10 s; talk 200 + hold 15 + ACW 25 = handle 240.
        record(
            "A1", at: 0, wait: 10, agent: hanako, talk: 200, hold: 15, acw: 25, attempts: 1, reason: "AGENT_DISCONNECT"),
        // A2: answered after 45 s (a first offer missed: 2 attempts); handle 100 + 20 = 120.
        record("A2", at: 60, wait: 45, agent: taro, talk: 100, acw: 20, attempts: 2, reason: "CUSTOMER_DISCONNECT"),
        // B1: a short abandon: the caller hung up after 3 s in queue. Connect counts it.
        record("B1", at: 120, wait: 3, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        // B2: abandoned after 50 s; one agent was offered it and missed it.
        record("B2", at: 180, wait: 50, attempts: 1, reason: "CUSTOMER_DISCONNECT"),
        // C1: the caller asked for a callback after 15 s, then hung up: not an abandon.
        record("C1", at: 240, next: "C2", wait: 15, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        // C2: the callback, queued 30 s, answered; handle 120 + 30 = 150.
        record(
            "C2", at: 300, method: "CALLBACK", initial: "C1", wait: 30, agent: hanako, talk: 120, acw: 30, attempts: 1,
            reason: "AGENT_DISCONNECT"),
        // D1: moved by the queue flow to Takeout after 25 s: not an abandon.
        record("D1", at: 360, next: "D2", wait: 25, attempts: 0, reason: nil),
        // D2: the queue transfer, abandoned after 5 s in Takeout.
        record(
            "D2", at: 420, method: "QUEUE_TRANSFER", initial: "D1", queue: takeout, wait: 5, attempts: 0,
            reason: "CUSTOMER_DISCONNECT"),
        // E1: answered after 8 s, then transferred by the agent to Takeout; handle 60 + 10 = 70.
        record(
            "E1", at: 480, next: "E2", wait: 8, agent: taro, talk: 60, acw: 10, attempts: 1, reason: "AGENT_DISCONNECT"),
        // E2: the agent transfer, queued 12 s in Takeout, answered; handle 90 + 10 + 20 = 120.
        record(
            "E2", at: 560, method: "TRANSFER", initial: "E1", queue: takeout, wait: 12, agent: hanako, talk: 90,
            hold: 10, acw: 20, attempts: 1, reason: "CUSTOMER_DISCONNECT"),
        // F1: answered after 18 s, transferred out to an external number; handle 40 + 5 = 45.
        record(
            "F1", at: 600, wait: 18, agent: taro, talk: 40, acw: 5, attempts: 1, reason: "AGENT_DISCONNECT",
            transferredTo: "+81 3-1234-5678"),
        // G1: an outbound call by hanako (its queue has no enqueue time); handle 180 + 40 = 220.
        record(
            "G1", at: 660, method: "OUTBOUND", queue: outbound, agent: hanako, talk: 180, acw: 40, attempts: 0,
            reason: "CUSTOMER_DISCONNECT"),
        // H1: ended in the IVR flow, never queued.
        record("H1", at: 720, queue: nil, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
        // I1: the queue flow disconnected it after 65 s (queue timeout): not the customer's abandon.
        record("I1", at: 780, wait: 65, attempts: 0, reason: "CONTACT_FLOW_DISCONNECT"),
    ]

    /// The izakaya's night: 2026-11-22 (Sunday, the day before Labor Thanksgiving Day) is open
    /// 17:00–26:00 in Tokyo.
    static let night: [ContactTraceRecord] = [
        // J1: 01:30 on the holiday's morning (2026-11-22T16:30Z), within Sunday's hours: Sunday's
        // business day. Queued 6 s, answered; handle 60.
        record(
            "J1", at: 401_400, store: "test-izakaya", wait: 6, agent: hanako, talk: 60, attempts: 1,
            reason: "CUSTOMER_DISCONNECT"),
        // J2: 03:30 on the holiday (18:30Z), after closing: the holiday's business day; ended in the flow.
        record("J2", at: 408_600, store: "test-izakaya", queue: nil, attempts: 0, reason: "CUSTOMER_DISCONNECT"),
    ]

    /// The izakaya and its two business days, as the hook's evaluator would write them.
    static let izakaya = StoreRow(
        storeId: "test-izakaya", name: "Izakaya", timeZone: "Asia/Tokyo", calendarId: "japan",
        hoursProfile: "izakaya-late", attributes: [:])
    static let izakayaDays = [
        BusinessDayRow(
            storeId: "test-izakaya", businessDate: "2026-11-22", dayType: "pre_holiday", hoursReason: nil,
            holidayName: nil, opensAt: UTCTimestamp(millisecondsSince1970: 1_795_334_400_000),  // 17:00 JST
            closesAt: UTCTimestamp(millisecondsSince1970: 1_795_366_800_000)),  // 02:00 JST on the 23rd
        BusinessDayRow(
            storeId: "test-izakaya", businessDate: "2026-11-23", dayType: "holiday", hoursReason: "勤労感謝の日",
            holidayName: "勤労感謝の日", opensAt: UTCTimestamp(millisecondsSince1970: 1_795_420_800_000),  // 17:00 JST
            closesAt: UTCTimestamp(millisecondsSince1970: 1_795_442_400_000)),  // 23:00 JST
    ]
}
