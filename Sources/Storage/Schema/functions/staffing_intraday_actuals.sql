CREATE OR REPLACE FUNCTION staffing_intraday_actuals(p_date date, p_before timestamptz, p_queue text)
RETURNS TABLE (queue text, store_id text, slot integer, offered bigint, answered bigint, abandoned bigint,
               handle_s bigint, handle_n bigint)
LANGUAGE plpgsql STABLE
-- The intraday reforecast calls it for every request: its plan is made once per session and
-- kept (a plan made for each call took longer than running it), and JIT, whose threshold the
-- estimate passes, compiled for longer than the query runs.
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $$
DECLARE
    v_time_zone text := analytics_time_zone();
    v_from timestamptz;
    v_to timestamptz;
BEGIN
    -- A contact of business day p_date entered its queue on that local date, or on the next
    -- while the day's business hours ran on: between the earliest local midnight of p_date among
    -- the stores' time zones (and the analytics one, for contacts of no known store) and the
    -- latest local midnight of the day after next.
    SELECT min(p_date::timestamp AT TIME ZONE z.tz), max((p_date + 2)::timestamp AT TIME ZONE z.tz)
    INTO v_from, v_to
    FROM (SELECT s.time_zone FROM store s WHERE s.time_zone IS NOT NULL UNION SELECT v_time_zone) AS z(tz);
    IF p_before IS NOT NULL AND p_before < v_to THEN
        v_to := p_before;
    END IF;
    RETURN QUERY
    SELECT o.queue, coalesce(o.store_id, '(unknown)'),
           floor(extract(epoch FROM o.enqueue_ts - (b.business_date::timestamp AT TIME ZONE z.tz)) / 900)::integer,
           count(*) FILTER (WHERE o.answered OR o.abandoned OR o.callback_requested),
           count(*) FILTER (WHERE o.answered), count(*) FILTER (WHERE o.abandoned),
           coalesce(sum(o.handle_s) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL), 0)::bigint,
           count(*) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL)
    FROM contact_outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (SELECT coalesce(s.time_zone, v_time_zone) AS tz) AS z
    CROSS JOIN LATERAL (SELECT (o.enqueue_ts AT TIME ZONE z.tz)::date AS local_date) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.enqueue_ts < p.closes_at
       AND p.business_date BETWEEN p_date - 1 AND p_date
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    WHERE o.queued
      AND o.enqueue_ts >= v_from AND o.enqueue_ts < v_to
      AND b.business_date = p_date
      AND (p_queue IS NULL OR o.queue = p_queue)
    GROUP BY 1, 2, 3;
END
$$;

COMMENT ON FUNCTION staffing_intraday_actuals(date, timestamptz, text) IS
'Contacts of business day p_date per queue, store and 15-minute slot from its midnight, as staffing_history files them (offered = answered + abandoned + callbacks; handle_s summed over handle_n answered contacts), counting only those that entered their queue before p_before (NULL: every one so far), of queue p_queue (NULL: every queue). Read from contact_outcome by the contacts'' timestamps, so a past day replays as it stood at any instant. The intraday reforecast''s read; its plan is kept per session and JIT is off.';
