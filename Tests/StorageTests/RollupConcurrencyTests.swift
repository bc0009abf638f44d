import ContactCenter
import Foundation
import PostgresNIO
import Primitives
import Storage
import SwitchboardTesting
import Testing

/// The rollups under agent events out of order, open segments, and two writers at once (an
/// import's lanes, a re-partitioned topic) holding the two ends of the same contact chains.
@Suite("Analyst rollups: agent events, open segments, concurrent writers", .enabled(if: TestDatabase.enabled))
struct RollupConcurrencyTests {
    static func agentSources(_ events: [AgentEvent], offset: Int64) -> [SourceRecord] {
        events.enumerated().map { index, event in
            SourceRecord(
                topic: "agent-events", partition: 0, offset: offset + Int64(index), key: Array(event.agentArn.utf8),
                value: Array(event.jsonData()))
        }
    }

    /// An available agent `name` at `time`.
    static func available(_ name: String, id: String, at time: UTCTimestamp) -> AgentEvent {
        AgentEvent(
            agentArn: "arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/\(name)",
            eventId: id,
            eventTimestamp: time,
            eventType: .stateChange,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(name: "Available", type: .routable, startTimestamp: nil),
                configuration: AgentConfiguration(username: name),
                contacts: []
            )
        )
    }

    @Test("agent events out of order and re-delivered give the hand-worked occupancy; open segments end at now()")
    func agentEventsOutOfOrder() async throws {
        try await IngestWriterTests.migrated("rollup_agents") { client in
            let timeline = AnalystViewAgentTests.timeline
            let odd = timeline.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            let even = timeline.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            // The later half of the odd events first, then the even ones backwards, then all again.
            try await RollupTests.write(client, Self.agentSources(Array(odd.suffix(4)), offset: 0))
            try await RollupTests.write(client, Self.agentSources(even.reversed(), offset: 10))
            try await RollupTests.write(client, Self.agentSources(Array(odd.prefix(4)), offset: 30))
            try await RollupTests.write(client, Self.agentSources(timeline, offset: 40))
            let actual = try await AnalystTable.fetch(
                client, from: "agent_interval_metrics",
                key: "username || '@' || to_char(interval_start AT TIME ZONE 'UTC', 'MM-DD HH24:MI')",
                columns: Array(AnalystViewAgentTests.expected.values.first!.keys),
                where: "interval_start = to_timestamp(\(AnalystViewAgentTests.base.millisecondsSince1970 / 1000))")
            AnalystTable.expectEqual(actual, AnalystViewAgentTests.expected, "agent_interval_metrics")

            // kumi's last event was 5 minutes ago: her segment is still open and lasts until now(),
            // not 10 minutes. jiro's event is an hour ahead: nothing of it has happened yet.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try await RollupTests.write(
                client,
                Self.agentSources(
                    [
                        Self.available("kumi", id: "kumi-1", at: UTCTimestamp(millisecondsSince1970: now - 300_000)),
                        Self.available("jiro", id: "jiro-1", at: UTCTimestamp(millisecondsSince1970: now + 3_600_000)),
                    ], offset: 100))
            let jiro = try await RollupTests.count(
                client, "SELECT count(*) FROM agent_status_interval WHERE username = 'jiro'")
            #expect(jiro == 0)
            let kumi = try await RollupTests.count(
                client, "SELECT ceil(sum(available_s))::bigint FROM agent_interval_metrics WHERE username = 'kumi'")
            #expect(kumi < 600, "an open segment counts until now(), not its full 10 minutes")
            try await RollupTests.expectExact(client)
        }
    }

    /// Contact chains: `P<i>` and its next contact `N<i>` (a callback, an agent transfer or a
    /// queue transfer), and for every third chain a newer version of `P<i>` an hour later in
    /// Takeout.
    static func chains(_ count: Int) -> (previous: [ContactTraceRecord], next: [ContactTraceRecord]) {
        var previous: [ContactTraceRecord] = []
        var next: [ContactTraceRecord] = []
        for i in 0..<count {
            let at = Int64(i) * 40
            let kind = i % 3
            let method = ["CALLBACK", "TRANSFER", "QUEUE_TRANSFER"][kind]
            let answered = kind == 1 ? AnalystFixtures.taro : nil
            previous.append(
                AnalystFixtures.record(
                    "P\(i)", at: at, next: "N\(i)", wait: 10 + i % 30, agent: answered, talk: 60, acw: 10, attempts: 1,
                    reason: "CUSTOMER_DISCONNECT"))
            if i % 3 == 0 {
                previous.append(
                    AnalystFixtures.record(
                        "P\(i)", at: at + 3_600, next: "N\(i)", queue: AnalystFixtures.takeout, wait: 5 + i % 40,
                        attempts: 1, reason: "CUSTOMER_DISCONNECT"))
            }
            next.append(
                AnalystFixtures.record(
                    "N\(i)", at: at + 20, method: method, initial: "P\(i)", queue: AnalystFixtures.takeout,
                    wait: i % 25, agent: AnalystFixtures.hanako, talk: 30, attempts: 1, reason: "AGENT_DISCONNECT"))
        }
        return (previous, next)
    }

    /// Writes `records` in batches of 7 in a shuffled order, with offsets from `partition`.
    static func writeShuffled(
        _ client: PostgresClient, _ records: [ContactTraceRecord], partition: Int32, seed: UInt64
    ) async throws {
        var random = SplitMix64(seed: seed)
        let offsets = records.indices.shuffled(using: &random)
        var batch: [SourceRecord] = []
        for index in offsets {
            batch.append(
                SourceRecord(
                    topic: "contact-records", partition: partition, offset: Int64(index),
                    key: Array(records[index].contactId.utf8), value: Array(records[index].jsonData())))
            if batch.count == 7 {
                try await RollupTests.write(client, batch)
                batch = []
            }
        }
        if !batch.isEmpty { try await RollupTests.write(client, batch) }
    }

    @Test("two writers at once hold the two ends of 150 contact chains, versions out of order: rollups stay exact")
    func concurrentWriters() async throws {
        try await IngestWriterTests.migrated("rollup_concurrent") { client in
            let (previous, next) = Self.chains(150)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.writeShuffled(client, previous, partition: 0, seed: 1) }
                group.addTask { try await Self.writeShuffled(client, next, partition: 1, seed: 2) }
                try await group.waitForAll()
            }
            try await RollupTests.expectExact(client)
            // 150 chains: 50 callbacks (P never answered, moved to Takeout by its newer version), 50
            // agent transfers, 50 queue transfers.
            let callbacks = try await RollupTests.count(
                client, "SELECT sum(callbacks_requested)::bigint FROM queue_interval_metrics")
            #expect(callbacks == 50)
            let takeout = try await RollupTests.count(
                client, "SELECT sum(queued)::bigint FROM queue_interval_metrics WHERE queue_name = 'Takeout'")
            #expect(takeout == 200, "150 next contacts and 50 moved previous ones")
            let transfers = try await RollupTests.count(
                client, "SELECT sum(transferred_out_queue)::bigint FROM queue_interval_metrics")
            #expect(transfers == 50)
            let queued = try await RollupTests.count(client, "SELECT sum(queued)::bigint FROM queue_interval_metrics")
            #expect(queued == 300)
        }
    }
}
