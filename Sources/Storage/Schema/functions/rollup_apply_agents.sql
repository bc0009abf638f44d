CREATE OR REPLACE FUNCTION rollup_apply_agents(p_agents text[], p_first timestamptz[], p_last timestamptz[])
RETURNS void LANGUAGE plpgsql SET jit = off AS $$
DECLARE
    v_agents text[];
    v_lo timestamptz[];
    v_hi timestamptz[];
BEGIN
    PERFORM rollup_lock();
    SELECT array_agg(a), array_agg(rollup_interval(f)), array_agg(rollup_interval(l + interval '10 minutes'))
    INTO v_agents, v_lo, v_hi
    FROM unnest(p_agents, p_first, p_last) AS u(a, f, l);
    IF v_agents IS NULL THEN
        RETURN;
    END IF;
    -- The rows to delete found by each agent's index, then deleted by row id.
    DELETE FROM agent_status_rollup s WHERE s.ctid = ANY (ARRAY(
        SELECT x.ctid FROM unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
        CROSS JOIN LATERAL (
            SELECT r.ctid FROM agent_status_rollup r
            WHERE r.agent_arn = g.agent_arn AND r.interval_start BETWEEN g.lo AND g.hi OFFSET 0
        ) AS x));
    DELETE FROM agent_interval_rollup s WHERE s.ctid = ANY (ARRAY(
        SELECT x.ctid FROM unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
        CROSS JOIN LATERAL (
            SELECT r.ctid FROM agent_interval_rollup r
            WHERE r.agent_arn = g.agent_arn AND r.interval_start BETWEEN g.lo AND g.hi OFFSET 0
        ) AS x));
    PERFORM rollup_insert_agents_by_key(v_agents, v_lo, v_hi);
END
$$;

COMMENT ON FUNCTION rollup_apply_agents(text[], timestamptz[], timestamptz[]) IS
'Recomputes the agent rollups of each agent from the interval of its first new event (p_first) to 10 minutes after its last (p_last). Called by the ingest writer after inserting events.';
