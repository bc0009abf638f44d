CREATE OR REPLACE FUNCTION agent_event_activity(p_event_type text, p_contact_state text, p_status_type text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN p_event_type = 'LOGOUT' THEN 'offline'
        WHEN p_contact_state IN ('ERROR', 'MISSED', 'REJECTED') THEN 'error'
        WHEN p_contact_state = 'CONNECTED' THEN 'onContact'
        WHEN p_contact_state = 'ENDED' THEN 'afterContactWork'
        WHEN p_contact_state = 'CONNECTING' THEN 'connecting'
        WHEN p_status_type = 'ROUTABLE' THEN 'available'
        WHEN p_status_type IS NULL OR p_status_type = 'OFFLINE' THEN 'offline'
        ELSE 'customStatus'
    END
$$;

COMMENT ON FUNCTION agent_event_activity(text, text, text) IS
'The activity of agent_activity_segment (Connect''s Agent Activity precedence) from an event''s type, contact_state and status_type.';
