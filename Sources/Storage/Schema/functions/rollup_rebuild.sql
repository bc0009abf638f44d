CREATE OR REPLACE FUNCTION rollup_rebuild(p_from timestamptz, p_to timestamptz) RETURNS void LANGUAGE plpgsql
SET jit = off AS $fn$
DECLARE
    v_lo timestamptz := coalesce(rollup_interval(p_from), '-infinity');
    v_hi timestamptz := coalesce(rollup_interval(p_to - interval '1 microsecond') + interval '15 minutes',
                                 'infinity');
    v_agents text[];
    v_first timestamptz[];
    v_last timestamptz[];
BEGIN
    PERFORM rollup_lock();
    PERFORM rollup_rebuild_contacts(p_from, p_to);
    DELETE FROM agent_status_rollup WHERE interval_start >= v_lo AND interval_start < v_hi;
    DELETE FROM agent_interval_rollup WHERE interval_start >= v_lo AND interval_start < v_hi;
    SELECT array_agg(agent_arn), array_agg(greatest(lo, v_lo)),
           array_agg(least(hi, v_hi - interval '15 minutes'))
    INTO v_agents, v_first, v_last
    FROM (
        SELECT agent_arn, rollup_interval(min(event_ts)) AS lo,
               rollup_interval(max(event_ts) + interval '10 minutes') AS hi
        FROM agent_event
        WHERE event_ts >= v_lo - interval '10 minutes' AND event_ts < v_hi
        GROUP BY agent_arn
    ) AS a;
    IF v_agents IS NOT NULL THEN
        PERFORM rollup_insert_agents(v_agents, v_first, v_last);
    END IF;
END
$fn$;

COMMENT ON FUNCTION rollup_rebuild(timestamptz, timestamptz) IS
'Recomputes every rollup from the raw tables for [p_from, p_to) (NULL: unbounded), widened to whole intervals; store days for the business dates (in analytics_time_zone()) of that range. Raw rows dropped by retention are gone: rebuild only ranges whose raw rows are kept.';
