extension SwitchboardSchema {
    /// The agent rollups' upkeep of migration 7, reading and deleting by key: its cost follows the
    /// batch instead of the history.
    ///
    /// `rollup_apply_agents` deleted each agent's intervals with `DELETE … USING unnest(…)` and
    /// recomputed them in `rollup_insert_agents`, whose events came from a join of the agents with
    /// `agent_event` on the agent and a time range. The planner cannot estimate a range that
    /// depends on the other side of a join, so it took the default selectivities and hashed the
    /// batch's agents against a sequential scan of every event and of both agent rollups. Measured
    /// on a week of 100 agents (504,000 events, an event a minute for 12 hours a day) with the
    /// next minute's 100 events: the upkeep read all 504,000 events and 169,400 rollup rows and
    /// took 413 ms against 2.4 ms for the insert, and the same for the next 50 minutes' 5,000 events
    /// (422 against 78 ms), growing with the history. Now each agent's rows are found by a probe of
    /// its index (`agent_event_agent_ts`, `agent_status_rollup_agent`, the primary key of
    /// `agent_interval_rollup`): 4–6 and 41–44 ms on the same week. `switchboard rollup rebuild`
    /// keeps `rollup_insert_agents`, which reads whole ranges, where the hash join is right.
    ///
    /// The rollup rows are deleted by row id, found after `rollup_lock()`: every writer of the agent
    /// rollups takes that lock (the ingest, the rebuild), and so must a hand edit made while the
    /// ingest runs, or a row it moves between the lookup and the delete would be kept.
    static let agentUpkeepByKey = Migration(
        version: 13,
        name: "agent rollup upkeep by key",
        statements: [
            replacing(
                in: insertAgents,
                [
                    ("CREATE FUNCTION rollup_insert_agents(", "CREATE FUNCTION rollup_insert_agents_by_key("),
                    (
                        """
                                JOIN agent_event e ON e.agent_arn = g.agent_arn
                                    AND e.event_ts >= g.lo - interval '10 minutes' AND e.event_ts < g.hi + interval '25 minutes'

                        """,
                        """
                                -- OFFSET 0 keeps it one index range scan per agent: joined, the planner hashed
                                -- the agents against every event. Only the columns read: not the raw JSON.
                                CROSS JOIN LATERAL (
                                    SELECT x.agent_arn, x.event_id, x.event_ts, x.event_type, x.username, x.status_name,
                                           x.status_type, x.activity, x.contact_state
                                    FROM agent_event x
                                    WHERE x.agent_arn = g.agent_arn
                                      AND x.event_ts >= g.lo - interval '10 minutes' AND x.event_ts < g.hi + interval '25 minutes'
                                    OFFSET 0
                                ) AS e

                        """
                    ),
                ]),
            """
            COMMENT ON FUNCTION rollup_insert_agents_by_key(text[], timestamptz[], timestamptz[]) IS
            'rollup_insert_agents reading each agent''s events by its index: the ingest''s upkeep (rollup_apply_agents), whose batches are small next to the history. The rebuild reads whole ranges with rollup_insert_agents.'
            """,
            replacing(
                in: rollupMaintenance.first { $0.hasPrefix("CREATE FUNCTION rollup_apply_agents(") } ?? "",
                [
                    ("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"),
                    (
                        """
                            DELETE FROM agent_status_rollup s USING unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
                            WHERE s.agent_arn = g.agent_arn AND s.interval_start BETWEEN g.lo AND g.hi;
                            DELETE FROM agent_interval_rollup s USING unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
                            WHERE s.agent_arn = g.agent_arn AND s.interval_start BETWEEN g.lo AND g.hi;
                            PERFORM rollup_insert_agents(v_agents, v_lo, v_hi);
                        """,
                        """
                            -- The rows to delete found by each agent's index, then deleted by row id.
                        \(deleteAgentIntervals(of: "agent_status_rollup"))
                        \(deleteAgentIntervals(of: "agent_interval_rollup"))
                            PERFORM rollup_insert_agents_by_key(v_agents, v_lo, v_hi);
                        """
                    ),
                ]),
        ]
    )

    /// `rollup_apply_agents`' delete of `table`'s rows (an agent rollup) of each agent's intervals
    /// `v_lo` … `v_hi`: found by the agent's index, deleted by row id.
    private static func deleteAgentIntervals(of table: String) -> String {
        """
            DELETE FROM \(table) s WHERE s.ctid = ANY (ARRAY(
                SELECT x.ctid FROM unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
                CROSS JOIN LATERAL (
                    SELECT r.ctid FROM \(table) r
                    WHERE r.agent_arn = g.agent_arn AND r.interval_start BETWEEN g.lo AND g.hi OFFSET 0
                ) AS x));
        """
    }
}
