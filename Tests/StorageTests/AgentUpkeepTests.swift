import Foundation
import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// The agent rollups' upkeep reads and deletes each agent's rows through its indexes (migration
/// 13), so the cost of a batch follows the batch, not the history.
@Suite("Analyst rollups: agent upkeep by key", .enabled(if: TestDatabase.enabled))
struct AgentUpkeepTests {
    /// Event `k` of `range`: agent `a<k % 20>`'s, one every 5 minutes per agent from
    /// 2026-03-02 00:00 UTC.
    static func generated(_ range: String) -> String {
        """
        SELECT k, 'arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a' || (k % 20) AS agent_arn,
               timestamptz '2026-03-02 00:00+00' + make_interval(mins => (k / 20) * 5, secs => k % 20) AS ts
        FROM \(range) AS k
        """
    }

    /// Inserts the events of `range`, every third one on a contact.
    static func events(_ range: String) -> String {
        """
        INSERT INTO agent_event (event_id, agent_arn, event_type, event_ts, username, status_name, status_type,
            status_start_ts, activity, contact_count, routing_profile, raw, source_partition, source_offset,
            contact_state)
        SELECT 'e-' || k, agent_arn, 'STATE_CHANGE', ts, 'agent' || (k % 20), 'Available', 'ROUTABLE', ts,
               CASE WHEN (k / 20) % 3 = 0 THEN 'onContact' ELSE 'available' END,
               CASE WHEN (k / 20) % 3 = 0 THEN 1 ELSE 0 END, 'Basic', jsonb_build_object('EventId', 'e-' || k), 0, k,
               CASE WHEN (k / 20) % 3 = 0 THEN 'CONNECTED' END
        FROM (\(generated(range))) AS e
        """
    }

    /// Each agent table's (every partition's) sequential scans counted by this session and not yet
    /// sent to the statistics (`pg_stat_xact_user_tables`). Those counters also hold the earlier
    /// transactions' scans until the session reports them, which it does only between
    /// transactions: within one, the difference of two readings is exactly the scans in between.
    static func sequentialScans(on connection: PostgresConnection) async throws -> String {
        let rows = try await connection.query(
            """
            SELECT string_agg(relname || ' ' || seq_scan, ', ' ORDER BY relname) FROM pg_stat_xact_user_tables
            WHERE relname LIKE 'agent_event%' OR relname IN ('agent_status_rollup', 'agent_interval_rollup')
            """,
            logger: TestDatabase.logger)
        for try await value in rows.decode(String?.self) { return value ?? "" }
        return ""
    }

    @Test("a batch's upkeep probes each agent's rows by index on a week of history, and the rollups stay exact")
    func upkeepByKey() async throws {
        try await IngestWriterTests.migrated("agent_upkeep_keys") { client in
            // A week of 20 agents (40,320 events), the rollups rebuilt, the statistics fresh.
            for statement in [
                Self.events("generate_series(0, 40319)"), "SELECT rollup_rebuild(NULL, NULL)",
                "ANALYZE agent_event", "ANALYZE agent_status_rollup", "ANALYZE agent_interval_rollup",
            ] {
                try await client.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger)
            }
            let history = try await RollupTests.count(client, "SELECT count(*) FROM agent_status_rollup")
            #expect(history > 1_000)

            // The next 5 minutes of every agent, written and upkept in one transaction as the ingest
            // writer's statement does it (rolled back if a step throws).
            let scans = try await client.withTransaction(logger: TestDatabase.logger) { connection in
                let logger = TestDatabase.logger
                let batch = "generate_series(40320, 40339)"
                try await connection.query(PostgresQuery(unsafeSQL: Self.events(batch)), logger: logger)
                let before = try await Self.sequentialScans(on: connection)
                try await connection.query(
                    """
                    SELECT rollup_apply_agents(array_agg(agent_arn), array_agg(ts), array_agg(ts)),
                           agent_latest_apply(array_agg(agent_arn), array_agg(ts))
                    FROM (\(unescaped: Self.generated(batch))) AS batch
                    """,
                    logger: logger)
                let after = try await Self.sequentialScans(on: connection)
                return (before: before, after: after)
            }
            #expect(scans.after == scans.before, "no sequential scan of agent_event or the agent rollups for 20 events")
            try await RollupTests.expectExact(client)
        }
    }
}
