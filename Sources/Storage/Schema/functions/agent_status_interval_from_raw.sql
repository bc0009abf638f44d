CREATE OR REPLACE FUNCTION agent_status_interval_from_raw() RETURNS SETOF agent_status_interval LANGUAGE sql STABLE AS $$
SELECT s.agent_arn,
       max(s.username) AS username,
       i.interval_start,
       s.activity,
       s.status_name,
       s.status_type,
       round(sum(extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                  - greatest(s.start_ts, i.interval_start)))::numeric, 3) AS seconds
FROM agent_activity_segment s
CROSS JOIN LATERAL generate_series(
    to_timestamp(floor(extract(epoch FROM s.start_ts) / 900) * 900),
    s.end_ts - interval '1 microsecond',
    interval '15 minutes'
) AS i(interval_start)
WHERE s.end_ts > s.start_ts
GROUP BY s.agent_arn, i.interval_start, s.activity, s.status_name, s.status_type
$$;

COMMENT ON FUNCTION agent_status_interval_from_raw() IS
'agent_status_interval computed from the raw tables, as the view read them before the rollups served it: what `switchboard rollup check` compares the view with.';
