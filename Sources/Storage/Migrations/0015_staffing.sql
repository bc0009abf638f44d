-- Migration 15: staffing
-- The history the staffing forecast reads (queued contacts per queue, store, business day and
-- 15-minute slot of that day, kept beyond raw retention), the day type of every store and date the
-- forecast needs, and the plans `switchboard staffing plan` stores with the inputs they were made from.

CREATE TABLE staffing_history (
    queue text NOT NULL,
    queue_name text,
    store_id text NOT NULL,
    business_date date NOT NULL,
    slot smallint NOT NULL,
    queued integer NOT NULL,
    offered integer NOT NULL,
    answered integer NOT NULL,
    abandoned integer NOT NULL,
    callbacks_requested integer NOT NULL,
    handle_s bigint NOT NULL,
    handle_n integer NOT NULL,
    queue_s bigint NOT NULL,
    PRIMARY KEY (queue, store_id, business_date, slot)
);

CREATE INDEX staffing_history_store_date ON staffing_history (store_id, business_date);

COMMENT ON TABLE staffing_history IS
'Queued contacts per queue, store, business day (store_business_day_at of enqueue_ts) and 15-minute slot from the business day''s midnight (slot 100 is 25:00 of an overnight day): queued (all), offered (answered + abandoned + callbacks requested: the volume the forecast predicts), handle_s/handle_n (talk + hold + after-contact work of answered contacts, and how many), queue_s (seconds in queue of all queued contacts: the patience estimate''s exposure). staffing_history_refresh(from, to) recomputes a range; switchboard staffing plan refreshes the days since the last refresh. Kept beyond raw retention: holidays forecast from the last three years.';

CREATE TABLE staffing_source (
    queue text NOT NULL,
    store_id text NOT NULL,
    first_date date NOT NULL,
    last_date date NOT NULL,
    PRIMARY KEY (queue, store_id)
);

COMMENT ON TABLE staffing_source IS
'Which stores feed which queue, and the business days of staffing_history between which they did: a store''s days before first_date are not zeros of that queue.';

CREATE FUNCTION staffing_history_refresh(p_from date, p_to date) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_time_zone text := analytics_time_zone();
    v_rows bigint;
BEGIN
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
    INSERT INTO staffing_source AS t (queue, store_id, first_date, last_date)
    SELECT queue, store_id, min(business_date), max(business_date)
    FROM staffing_history WHERE business_date BETWEEN p_from AND p_to
    GROUP BY queue, store_id
    ON CONFLICT (queue, store_id) DO UPDATE
        SET first_date = least(t.first_date, EXCLUDED.first_date), last_date = greatest(t.last_date, EXCLUDED.last_date);
    RETURN v_rows;
END
$$;

COMMENT ON FUNCTION staffing_history_refresh(date, date) IS
'Recomputes staffing_history for the business days p_from..p_to from contact_outcome (raw rows: only days still within retention) and widens staffing_source; returns the rows written.';

CREATE FUNCTION staffing_day_types(p_from date, p_to date)
RETURNS TABLE (store_id text, business_date date, day_type text)
LANGUAGE sql STABLE AS $$
    SELECT st.store_id, g.day::date,
           coalesce(d.day_type, CASE
               WHEN h0.day IS NOT NULL THEN 'holiday'
               WHEN h1.day IS NOT NULL THEN 'pre_holiday'
               WHEN extract(isodow FROM g.day) IN (6, 7) THEN 'weekend'
               ELSE 'weekday' END)
    FROM (SELECT DISTINCT s.store_id FROM staffing_source s) AS st
    CROSS JOIN generate_series(p_from::timestamp, p_to::timestamp, interval '1 day') AS g(day)
    LEFT JOIN store_business_day d ON d.store_id = st.store_id AND d.business_date = g.day::date
    LEFT JOIN calendar_day h0 ON h0.day = g.day::date
    LEFT JOIN calendar_day h1 ON h1.day = g.day::date + 1
$$;

COMMENT ON FUNCTION staffing_day_types(date, date) IS
'The day type of every store of staffing_source on every date of p_from..p_to: store_business_day''s (the IVR hook''s), else the national calendar''s (holiday, pre_holiday, weekend, weekday).';

CREATE TABLE staffing_plan (
    plan_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    from_date date NOT NULL,
    to_date date NOT NULL,
    queue_filter text,
    model text NOT NULL,
    service_level_target double precision NOT NULL,
    threshold_s double precision NOT NULL,
    max_occupancy double precision,
    shrinkage double precision NOT NULL,
    forecast_method text NOT NULL,
    notes text[] NOT NULL DEFAULT '{}'
);

COMMENT ON TABLE staffing_plan IS
'One row per switchboard staffing plan run: the date range and queue asked for, the model (erlang-a, erlang-c), the target (service_level_target answered within threshold_s over offered), max_occupancy, shrinkage, the forecast method and its parameters, and the notes printed (fallbacks to another day type, queues without abandons). Its intervals are staffing_plan_interval.';

CREATE TABLE staffing_plan_interval (
    plan_id bigint NOT NULL REFERENCES staffing_plan ON DELETE CASCADE,
    queue text NOT NULL,
    queue_name text,
    interval_start timestamptz NOT NULL,
    day_types text NOT NULL,
    forecast_offered double precision NOT NULL,
    forecast_aht_s double precision,
    patience_s double precision,
    offered_load double precision NOT NULL,
    agents integer NOT NULL,
    fractional_agents double precision NOT NULL,
    scheduled_agents integer NOT NULL,
    scheduled_fractional_agents double precision NOT NULL,
    service_level double precision NOT NULL,
    connect_service_level double precision NOT NULL,
    probability_of_waiting double precision NOT NULL,
    average_speed_of_answer_s double precision,
    occupancy double precision NOT NULL,
    probability_of_abandoning double precision,
    PRIMARY KEY (plan_id, queue, interval_start)
);

COMMENT ON TABLE staffing_plan_interval IS
'The plan per queue and 15-minute interval: day_types of the stores feeding the queue that day, the forecast (offered contacts, AHT), the patience used (Erlang A), agents needed on the queue (whole, and fractional: sum those, then round), scheduled agents (agents / (1 - shrinkage)) and the predicted service_level (answered within X over offered), connect_service_level (removed from the queue within X over queued), ASA of answered contacts, occupancy, probability of abandoning. Join with queue_interval_metrics on (queue, interval_start) to compare with what happened.';

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
        EXECUTE 'GRANT SELECT ON staffing_history, staffing_source, staffing_plan, staffing_plan_interval
                 TO switchboard_analyst';
        EXECUTE 'GRANT EXECUTE ON FUNCTION staffing_day_types(date, date) TO switchboard_analyst';
    END IF;
END
$$;
