CREATE OR REPLACE FUNCTION agent_latest_rebuild() RETURNS void LANGUAGE sql AS $$
    DELETE FROM agent_latest_event;
    INSERT INTO agent_latest_event
    SELECT DISTINCT ON (agent_arn) agent_arn, event_id, event_ts, event_type, contact_state, status_type,
           status_name, activity
    FROM agent_event
    ORDER BY agent_arn, event_ts DESC, event_id DESC;
$$;
