CREATE OR REPLACE FUNCTION staffing_history_refresh(p_from date, p_to date) RETURNS bigint
LANGUAGE plpgsql
SET jit = off
SET work_mem = '64MB'
AS $$
DECLARE
    v_time_zone text := analytics_time_zone();
    v_rows bigint;
BEGIN
    -- One refresh at a time: two that delete and insert the same days at once would collide on
    -- the primary key. The next one waits, then recomputes from what the first committed.
    PERFORM pg_advisory_xact_lock(hashtext('switchboard.staffing_history_refresh'));
    DELETE FROM staffing_history WHERE business_date BETWEEN p_from AND p_to;
    INSERT INTO staffing_history (queue, queue_name, store_id, business_date, slot, queued, offered, answered,
                                  abandoned, callbacks_requested, handle_s, handle_n, queue_s)
    SELECT o.queue, max(o.queue_name), coalesce(o.store_id, '(unknown)'), b.business_date,
           floor(extract(epoch FROM o.enqueue_ts - (b.business_date::timestamp AT TIME ZONE z.tz)) / 900)::smallint,
           count(*), count(*) FILTER (WHERE o.answered OR o.abandoned OR o.callback_requested),
           count(*) FILTER (WHERE o.answered), count(*) FILTER (WHERE o.abandoned),
           count(*) FILTER (WHERE o.callback_requested),
           coalesce(sum(o.handle_s) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL), 0),
           count(*) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL),
           coalesce(sum(o.queue_s), 0)
    FROM contact_outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (SELECT coalesce(s.time_zone, v_time_zone) AS tz) AS z
    CROSS JOIN LATERAL (SELECT (o.enqueue_ts AT TIME ZONE z.tz)::date AS local_date) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.enqueue_ts < p.closes_at
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    WHERE o.queued
      AND o.enqueue_ts >= (p_from::timestamp AT TIME ZONE v_time_zone) - interval '2 days'
      AND o.enqueue_ts < ((p_to + 2)::timestamp AT TIME ZONE v_time_zone)
      AND b.business_date BETWEEN p_from AND p_to
    GROUP BY o.queue, coalesce(o.store_id, '(unknown)'), b.business_date, 5;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    DELETE FROM staffing_history_day WHERE business_date BETWEEN p_from AND p_to;
    INSERT INTO staffing_history_day (queue, store_id, business_date, queue_name, offered, abandoned, handle_s,
                                      handle_n, queue_s, slots, offered_by_slot, handle_s_by_slot, handle_n_by_slot)
    SELECT queue, store_id, business_date, max(queue_name), sum(offered), sum(abandoned), sum(handle_s),
           sum(handle_n), sum(queue_s), array_agg(slot ORDER BY slot), array_agg(offered ORDER BY slot),
           array_agg(handle_s ORDER BY slot), array_agg(handle_n ORDER BY slot)
    FROM staffing_history WHERE business_date BETWEEN p_from AND p_to
    GROUP BY queue, store_id, business_date;
    INSERT INTO staffing_source AS t (queue, store_id, first_date, last_date)
    SELECT queue, store_id, min(business_date), max(business_date)
    FROM staffing_history_day WHERE business_date BETWEEN p_from AND p_to
    GROUP BY queue, store_id
    ON CONFLICT (queue, store_id) DO UPDATE
        SET first_date = least(t.first_date, EXCLUDED.first_date), last_date = greatest(t.last_date, EXCLUDED.last_date);
    -- When the refresh ended, not when its transaction began: a long first refresh counts from its end.
    INSERT INTO staffing_refresh AS r (refreshed_at, through_date) VALUES (clock_timestamp(), p_to)
    ON CONFLICT (singleton) DO UPDATE SET refreshed_at = EXCLUDED.refreshed_at, through_date = EXCLUDED.through_date;
    RETURN v_rows;
END
$$;

COMMENT ON FUNCTION staffing_history_refresh(date, date) IS
'Recomputes staffing_history and staffing_history_day for the business days p_from..p_to from contact_outcome (raw rows: only days still within retention), widens staffing_source and records the refresh in staffing_refresh; returns the rows written. One refresh runs at a time (an advisory lock); JIT is off for it.';
