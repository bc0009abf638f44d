CREATE OR REPLACE FUNCTION agent_latest_apply(p_agents text[], p_last timestamptz[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO agent_latest_event AS t
    SELECT DISTINCT ON (e.agent_arn) e.agent_arn, e.event_id, e.event_ts, e.event_type, e.contact_state,
           e.status_type, e.status_name, e.activity
    FROM unnest(p_agents, p_last) AS g(agent_arn, last)
    JOIN agent_event e ON e.agent_arn = g.agent_arn AND e.event_ts = g.last
    ORDER BY e.agent_arn, e.event_id DESC
    ON CONFLICT (agent_arn) DO UPDATE SET
        event_id = EXCLUDED.event_id, event_ts = EXCLUDED.event_ts, event_type = EXCLUDED.event_type,
        contact_state = EXCLUDED.contact_state, status_type = EXCLUDED.status_type,
        status_name = EXCLUDED.status_name, activity = EXCLUDED.activity
    WHERE (EXCLUDED.event_ts, EXCLUDED.event_id) > (t.event_ts, t.event_id);
$$;

COMMENT ON FUNCTION agent_latest_apply(text[], timestamptz[]) IS
'Moves each agent''s latest event forward to its events at p_last (the latest time of the events the ingest just inserted for it). Called by the ingest writer with rollup_apply_agents.';
