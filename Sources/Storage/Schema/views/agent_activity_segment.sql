CREATE VIEW agent_activity_segment AS
SELECT agent_arn,
       username,
       CASE
           WHEN event_type = 'LOGOUT' THEN 'offline'
           WHEN contact_state IN ('ERROR', 'MISSED', 'REJECTED') THEN 'error'
           WHEN contact_state = 'CONNECTED' THEN 'onContact'
           WHEN contact_state = 'ENDED' THEN 'afterContactWork'
           WHEN contact_state = 'CONNECTING' THEN 'connecting'
           WHEN status_type = 'ROUTABLE' THEN 'available'
           WHEN status_type IS NULL OR status_type = 'OFFLINE' THEN 'offline'
           ELSE 'customStatus'
       END AS activity,
       coalesce(status_name, status_type, activity) AS status_name,
       status_type,
       event_ts AS start_ts,
       least(coalesce(lead(event_ts) OVER w, now()), event_ts + interval '10 minutes') AS end_ts
FROM agent_event
WINDOW w AS (PARTITION BY agent_arn ORDER BY event_ts, event_id);

COMMENT ON VIEW agent_activity_segment IS
'One row per agent event: the agent''s activity (Connect''s Agent Activity: error covers error, missed and rejected contacts; connecting covers incoming and connecting) and status from the event until the next one, at most 10 minutes.';
