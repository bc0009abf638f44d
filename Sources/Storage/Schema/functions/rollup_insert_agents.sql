CREATE OR REPLACE FUNCTION rollup_insert_agents(p_agents text[], p_lo timestamptz[], p_hi timestamptz[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan SET jit = off AS $fn$
BEGIN
    WITH g AS (
        SELECT * FROM unnest(p_agents, p_lo, p_hi) AS g(agent_arn, lo, hi)
    ), segment AS (
        SELECT g.lo, g.hi, e.agent_arn, e.username,
               agent_event_activity(e.event_type, e.contact_state, e.status_type) AS activity,
               coalesce(e.status_name, e.status_type, e.activity) AS status_name,
               e.status_type,
               e.event_ts AS start_ts,
               least(coalesce(lead(e.event_ts) OVER w, e.event_ts + interval '10 minutes'),
                     e.event_ts + interval '10 minutes') AS end_ts
        FROM g
        JOIN agent_event e ON e.agent_arn = g.agent_arn
            AND e.event_ts >= g.lo - interval '10 minutes' AND e.event_ts < g.hi + interval '25 minutes'
        WINDOW w AS (PARTITION BY e.agent_arn, g.lo ORDER BY e.event_ts, e.event_id)
    ), piece AS (
        SELECT s.agent_arn, s.username, i.interval_start, s.activity, s.status_name, s.status_type,
               extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                - greatest(s.start_ts, i.interval_start)) AS seconds
        FROM segment s
        CROSS JOIN LATERAL generate_series(
            rollup_interval(s.start_ts), s.end_ts - interval '1 microsecond', interval '15 minutes'
        ) AS i(interval_start)
        WHERE s.end_ts > s.start_ts AND i.interval_start BETWEEN s.lo AND s.hi
    ), narrow AS (
        INSERT INTO agent_status_rollup (agent_arn, interval_start, activity, status_name, status_type,
            username, seconds)
        SELECT agent_arn, interval_start, activity, status_name, status_type, max(username), sum(seconds)
        FROM piece
        GROUP BY agent_arn, interval_start, activity, status_name, status_type
        -- In time order, as the ingest writes them: a day's rows share pages.
        ORDER BY interval_start, agent_arn
        RETURNING *
    )
    -- The wide rows from the narrow ones just written, each status's seconds rounded first.
    INSERT INTO agent_interval_rollup (agent_arn, interval_start, username, available_s, connecting_s,
        on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s, agent_on_contact_s,
        agent_idle_s)
    SELECT s.agent_arn, s.interval_start, max(s.username),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'available'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'connecting'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'onContact'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'afterContactWork'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'error'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'customStatus'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'offline'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('onContact', 'afterContactWork') AND s.status_type = 'ROUTABLE'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('available', 'error') AND s.status_type = 'ROUTABLE'), 0)
    FROM narrow s
    GROUP BY s.agent_arn, s.interval_start
    ORDER BY s.interval_start, s.agent_arn;
END
$fn$;
