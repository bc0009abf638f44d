-- Migration 3: analyst views and role
--
-- The analysts' interface: settings, the calendar, metric views and the read-only role.

CREATE TABLE analytics_setting (
    key text PRIMARY KEY,
    value text NOT NULL,
    description text NOT NULL
);

INSERT INTO analytics_setting (key, value, description) VALUES
('service_level_threshold_seconds', '20', 'A contact answered within this many seconds of queueing counts toward service level.'),
('business_time_zone', 'Asia/Tokyo', 'Time zone of business days in store_day_metrics.');

CREATE FUNCTION analytics_threshold_seconds() RETURNS integer LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT value::integer FROM analytics_setting WHERE key = 'service_level_threshold_seconds'), 20) $$;

CREATE FUNCTION analytics_time_zone() RETURNS text LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT value FROM analytics_setting WHERE key = 'business_time_zone'), 'Asia/Tokyo') $$;

CREATE FUNCTION mask_phone(number text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN number IS NULL THEN NULL
               WHEN length(number) <= 6 THEN repeat('*', length(number))
               ELSE left(number, 3) || repeat('*', length(number) - 7) || right(number, 4) END $$;

CREATE TABLE calendar_day (
    day date PRIMARY KEY,
    name_ja text NOT NULL,
    name_en text NOT NULL,
    kind text NOT NULL
);

COMMENT ON TABLE calendar_day IS
'Japanese national holidays (computed by law in Swift, with flows/ additions), written at start-up for the years around today.';

CREATE FUNCTION day_type(d date) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM calendar_day WHERE day = d) THEN 'holiday'
        WHEN EXISTS (SELECT 1 FROM calendar_day WHERE day = d + 1) THEN 'pre_holiday'
        WHEN extract(isodow FROM d) IN (6, 7) THEN 'weekend'
        ELSE 'weekday' END
$$;

CREATE VIEW contact_record_analyst AS
SELECT contact_id, initial_contact_id, previous_contact_id, next_contact_id, channel, initiation_method,
       initiation_ts, connected_to_system_ts, disconnect_ts, disconnect_reason, queue_name, queue_arn,
       enqueue_ts, dequeue_ts, queue_duration_s, agent_username, agent_arn, connected_to_agent_ts,
       agent_interaction_s, customer_hold_s, acw_start_ts, acw_end_ts, acw_s, number_of_holds,
       longest_hold_s, routing_profile, dialed_number, mask_phone(customer_number) AS customer_number,
       store_id, attributes - 'customerNumber' AS attributes, last_update_ts, versions_seen
FROM contact_record;

CREATE VIEW queue_interval_metrics AS
WITH contact AS (
    SELECT coalesce(queue_arn, queue_name) AS queue,
           queue_name,
           to_timestamp(floor(extract(epoch FROM enqueue_ts) / 900) * 900) AS interval_start,
           connected_to_agent_ts IS NOT NULL AS answered,
           coalesce(queue_duration_s,
                    greatest(0, floor(extract(epoch FROM coalesce(dequeue_ts, connected_to_agent_ts) - enqueue_ts)))::integer
           ) AS queue_s,
           coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0) AS handle_s
    FROM contact_record
    WHERE enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL
)
SELECT queue,
       max(queue_name) AS queue_name,
       interval_start,
       interval_start + interval '15 minutes' AS interval_end,
       count(*) AS queued,
       count(*) FILTER (WHERE answered) AS answered,
       count(*) FILTER (WHERE NOT answered) AS abandoned,
       count(*) FILTER (WHERE answered AND queue_s <= analytics_threshold_seconds()) AS answered_within_threshold,
       round(count(*) FILTER (WHERE answered AND queue_s <= analytics_threshold_seconds())::numeric / count(*), 4)
           AS service_level,
       round(avg(coalesce(queue_s, 0)) FILTER (WHERE answered), 2) AS average_speed_of_answer_s,
       round(avg(handle_s) FILTER (WHERE answered), 2) AS average_handle_time_s,
       round(count(*) FILTER (WHERE NOT answered)::numeric / count(*), 4) AS abandonment_rate,
       max(queue_s) AS max_queued_s
FROM contact
GROUP BY queue, interval_start;

CREATE VIEW agent_status_interval AS
WITH segment AS (
    SELECT agent_arn, username, activity, coalesce(status_name, status_type, activity) AS status_name,
           event_ts AS start_ts,
           least(coalesce(lead(event_ts) OVER w, now()), event_ts + interval '10 minutes') AS end_ts
    FROM agent_event
    WINDOW w AS (PARTITION BY agent_arn ORDER BY event_ts, event_id)
)
SELECT s.agent_arn,
       max(s.username) AS username,
       i.interval_start,
       s.activity,
       s.status_name,
       round(sum(extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                  - greatest(s.start_ts, i.interval_start)))::numeric, 3) AS seconds
FROM segment s
CROSS JOIN LATERAL generate_series(
    to_timestamp(floor(extract(epoch FROM s.start_ts) / 900) * 900),
    s.end_ts - interval '1 microsecond',
    interval '15 minutes'
) AS i(interval_start)
WHERE s.end_ts > s.start_ts
GROUP BY s.agent_arn, i.interval_start, s.activity, s.status_name;

COMMENT ON VIEW agent_status_interval IS
'Seconds per agent, 15-minute interval, activity and status name. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s).';

CREATE VIEW agent_interval_metrics AS
SELECT agent_arn,
       max(username) AS username,
       interval_start,
       interval_start + interval '15 minutes' AS interval_end,
       coalesce(sum(seconds) FILTER (WHERE activity = 'available'), 0) AS available_s,
       coalesce(sum(seconds) FILTER (WHERE activity = 'onContact'), 0) AS on_contact_s,
       coalesce(sum(seconds) FILTER (WHERE activity = 'afterContactWork'), 0) AS after_contact_work_s,
       coalesce(sum(seconds) FILTER (WHERE activity = 'customStatus'), 0) AS custom_status_s,
       coalesce(sum(seconds) FILTER (WHERE activity = 'offline'), 0) AS offline_s,
       round(
           coalesce(sum(seconds) FILTER (WHERE activity IN ('onContact', 'afterContactWork')), 0)
           / nullif(coalesce(sum(seconds) FILTER (WHERE activity IN ('onContact', 'afterContactWork', 'available')), 0), 0),
           4
       ) AS occupancy
FROM agent_status_interval
GROUP BY agent_arn, interval_start;

CREATE VIEW store_day_metrics AS
WITH contact AS (
    SELECT store_id,
           (initiation_ts AT TIME ZONE analytics_time_zone())::date AS business_date,
           enqueue_ts IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS answered,
           coalesce(queue_duration_s,
                    greatest(0, floor(extract(epoch FROM coalesce(dequeue_ts, connected_to_agent_ts) - enqueue_ts)))::integer
           ) AS queue_s,
           coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0) AS handle_s
    FROM contact_record
    WHERE initiation_ts IS NOT NULL
)
SELECT coalesce(store_id, '(unknown)') AS store_id,
       business_date,
       day_type(business_date) AS day_type,
       count(*) AS contacts,
       count(*) FILTER (WHERE NOT queued) AS ended_in_flow,
       count(*) FILTER (WHERE queued) AS queued,
       count(*) FILTER (WHERE queued AND answered) AS answered,
       count(*) FILTER (WHERE queued AND NOT answered) AS abandoned,
       round(count(*) FILTER (WHERE queued AND answered AND queue_s <= analytics_threshold_seconds())::numeric
             / nullif(count(*) FILTER (WHERE queued), 0), 4) AS service_level,
       round(avg(coalesce(queue_s, 0)) FILTER (WHERE queued AND answered), 2) AS average_speed_of_answer_s,
       round(avg(handle_s) FILTER (WHERE queued AND answered), 2) AS average_handle_time_s,
       round(count(*) FILTER (WHERE queued AND NOT answered)::numeric
             / nullif(count(*) FILTER (WHERE queued), 0), 4) AS abandonment_rate
FROM contact
GROUP BY coalesce(store_id, '(unknown)'), business_date;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
        CREATE ROLE switchboard_analyst LOGIN;
    END IF;
EXCEPTION
    WHEN insufficient_privilege THEN
        RAISE WARNING 'cannot create role switchboard_analyst (%); ask an administrator to create it', SQLERRM;
    -- Roles are cluster-wide: another database's migration may have created it just now.
    WHEN duplicate_object OR unique_violation THEN
        NULL;
END
$$;

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
        EXECUTE 'GRANT USAGE ON SCHEMA public TO switchboard_analyst';
        EXECUTE 'REVOKE ALL ON contact_record, agent_event, contact_event, dead_letter, consumer_offset FROM switchboard_analyst';
        EXECUTE 'GRANT SELECT ON contact_record_analyst, queue_interval_metrics, agent_status_interval,
                 agent_interval_metrics, store_day_metrics, calendar_day, analytics_setting TO switchboard_analyst';
    END IF;
END
$$;
