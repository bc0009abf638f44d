CREATE VIEW agent_status_interval AS
SELECT agent_arn, max(username) AS username, interval_start, activity, status_name, status_type,
       round(sum(seconds), 3) AS seconds
FROM (
    SELECT agent_arn, username, interval_start, activity, status_name, status_type, seconds
    FROM agent_status_rollup
    UNION ALL
    SELECT e.agent_arn, NULL, i.interval_start,
           agent_event_activity(e.event_type, e.contact_state, e.status_type),
           coalesce(e.status_name, e.status_type, e.activity), e.status_type,
           -extract(epoch FROM least(e.event_ts + interval '10 minutes', i.interval_start + interval '15 minutes')
                             - greatest(c.cut, i.interval_start))
    FROM agent_latest_event e
    CROSS JOIN LATERAL (SELECT greatest(e.event_ts, now()) AS cut) AS c
    CROSS JOIN LATERAL generate_series(
        rollup_interval(c.cut), e.event_ts + interval '10 minutes' - interval '1 microsecond',
        interval '15 minutes'
    ) AS i(interval_start)
    WHERE e.event_ts > now() - interval '10 minutes'
) AS u
GROUP BY agent_arn, interval_start, activity, status_name, status_type
HAVING sum(seconds) > 0;

COMMENT ON VIEW agent_status_interval IS
'Seconds per agent, 15-minute interval, activity and status. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s), and at most until now(). From agent_status_rollup.';
