-- Migration 6: connect metric definitions
--
-- The analyst views rebuilt on Amazon Connect's metric definitions (admin guide, "Metric
-- definitions"; contact records data model, "How to identify abandoned contacts"), each
-- column named and documented in the README, "SQL for analysts".

DROP VIEW store_day_metrics, agent_interval_metrics, agent_status_interval, queue_interval_metrics, contact_record_analyst;

CREATE OR REPLACE FUNCTION mask_phone(number text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN number IS NULL THEN NULL ELSE coalesce((
        SELECT string_agg(
                   CASE WHEN c.ch ~ '[[:alnum:]]' AND NOT (c.ch ~ '^[0-9]$' AND c.digits > 6 AND c.from_end <= 4)
                        THEN '*' ELSE c.ch END, '' ORDER BY c.pos)
        FROM (
            SELECT t.ch, t.pos,
                   count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER (ORDER BY t.pos DESC) AS from_end,
                   count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER () AS digits
            FROM regexp_split_to_table(number, '') WITH ORDINALITY AS t(ch, pos)
        ) AS c), '') END
$$;

COMMENT ON FUNCTION mask_phone(text) IS
'Masks a phone number: every letter and digit becomes *, except the last 4 digits of a number with more than 6 digits (+81312345678 -> +*******5678).';

CREATE FUNCTION looks_like_phone(value text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT value ~ '[0-9]([ ().-]{0,2}[0-9]){6,}'
       AND value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$'
$$;

COMMENT ON FUNCTION looks_like_phone(text) IS
'Whether a value contains a run of 7 or more digits (separated by at most two of space, parentheses, dot or hyphen), other than an ISO 8601 date or time.';

INSERT INTO analytics_setting (key, value, description) VALUES
('analyst_attribute_keys', 'storeId,result,dayType,flow,rule,queue,language,intent,partySize,followUp',
 'Contact attribute keys analysts see in contact_record_analyst (comma-separated). Written from SWITCHBOARD_ANALYST_ATTRIBUTE_KEYS on migrate. Phone-like values are masked even for these keys.');

CREATE FUNCTION analyst_attribute_keys() RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT array_remove(string_to_array(regexp_replace(value, '[[:space:]]', '', 'g'), ','), '')
         FROM analytics_setting WHERE key = 'analyst_attribute_keys'),
        ARRAY[]::text[])
$$;

CREATE FUNCTION analyst_attributes(attributes jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        jsonb_object_agg(a.key, CASE WHEN looks_like_phone(a.value) THEN mask_phone(a.value) ELSE a.value END),
        '{}'::jsonb)
    FROM jsonb_each_text(CASE WHEN jsonb_typeof(attributes) = 'object' THEN attributes ELSE '{}' END)
         AS a(key, value)
    WHERE a.key = ANY (analyst_attribute_keys())
$$;

COMMENT ON FUNCTION analyst_attributes(jsonb) IS
'The allowed contact attributes (analyst_attribute_keys()), phone-like values masked.';

CREATE VIEW contact_record_analyst AS
SELECT contact_id, initial_contact_id, previous_contact_id, next_contact_id, channel, initiation_method,
       initiation_ts, connected_to_system_ts, disconnect_ts, disconnect_reason, queue_name, queue_arn,
       enqueue_ts, dequeue_ts, queue_duration_s, agent_username, agent_arn, connected_to_agent_ts,
       agent_interaction_s, customer_hold_s, acw_start_ts, acw_end_ts, acw_s, number_of_holds,
       longest_hold_s, routing_profile, dialed_number, mask_phone(customer_number) AS customer_number,
       store_id, analyst_attributes(attributes) AS attributes, last_update_ts, versions_seen,
       agent_connection_attempts, transfer_completed_ts,
       mask_phone(transferred_to_endpoint) AS transferred_to_endpoint,
       agent_hierarchy_level1, agent_hierarchy_level2, agent_hierarchy_level3, agent_hierarchy_level4,
       agent_hierarchy_level5
FROM contact_record;

CREATE VIEW contact_outcome AS
WITH base AS (
    SELECT r.contact_id, r.initial_contact_id, r.previous_contact_id, r.next_contact_id, r.channel,
           r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id,
           coalesce(r.queue_arn, r.queue_name) AS queue, r.queue_name, r.enqueue_ts,
           r.connected_to_agent_ts, r.agent_arn, r.agent_username, r.routing_profile,
           r.agent_hierarchy_level1, r.agent_hierarchy_level2, r.agent_hierarchy_level3,
           r.agent_hierarchy_level4, r.agent_hierarchy_level5,
           r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts,
           r.transfer_completed_ts, r.transferred_to_endpoint,
           n.initiation_method AS next_initiation_method,
           r.enqueue_ts IS NOT NULL AND coalesce(r.queue_arn, r.queue_name) IS NOT NULL AS queued,
           r.connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN r.enqueue_ts IS NOT NULL THEN coalesce(
               r.queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(r.dequeue_ts, r.connected_to_agent_ts, r.disconnect_ts) - r.enqueue_ts)))::integer)
           END AS queue_s
    FROM contact_record r
    LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false) AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           handled AND coalesce(next_initiation_method = 'TRANSFER', false) AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
)
SELECT contact_id,
       coalesce(initial_contact_id, contact_id) AS initial_contact_id,
       initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
       previous_contact_id, next_contact_id, channel, initiation_method, initiation_ts, disconnect_ts,
       disconnect_reason, store_id, queue, queue_name, enqueue_ts,
       to_timestamp(floor(extract(epoch FROM enqueue_ts) / 900) * 900) AS interval_start,
       queue_s, connected_to_agent_ts, agent_arn, agent_username, routing_profile,
       agent_hierarchy_level1, agent_hierarchy_level2, agent_hierarchy_level3, agent_hierarchy_level4,
       agent_hierarchy_level5,
       queued, handled, answered, abandoned, callback_requested,
       transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
       transferred_out_queue, transferred_out_by_agent, transferred_out_external,
       answered AND queue_s <= analytics_threshold_seconds() AS answered_within_threshold,
       abandoned AND queue_s <= analytics_threshold_seconds() AS abandoned_within_threshold,
       (answered OR abandoned OR callback_requested) AND queue_s <= analytics_threshold_seconds()
           AS removed_within_threshold,
       CASE WHEN handled THEN coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
       END AS handle_s,
       acw_s, agent_connection_attempts, transfer_completed_ts,
       mask_phone(transferred_to_endpoint) AS transferred_to_endpoint
FROM classified;

COMMENT ON VIEW contact_outcome IS
'One row per contact record, classified by Amazon Connect''s definitions (README, SQL for analysts): queued, handled (connected to an agent), answered (queued and handled), abandoned (customer disconnected in queue; callbacks and transfers excluded), callback_requested, transfers out, within-threshold flags (analytics_threshold_seconds()).';

CREATE VIEW queue_interval_metrics AS
SELECT queue,
       max(queue_name) AS queue_name,
       interval_start,
       interval_start + interval '15 minutes' AS interval_end,
       count(*) AS queued,
       count(*) FILTER (WHERE answered) AS answered,
       count(*) FILTER (WHERE abandoned) AS abandoned,
       count(*) FILTER (WHERE callback_requested) AS callbacks_requested,
       count(*) FILTER (WHERE transferred_out) AS transferred_out,
       count(*) FILTER (WHERE transferred_out_queue) AS transferred_out_queue,
       count(*) FILTER (WHERE transferred_out_external) AS transferred_out_external,
       count(*) FILTER (WHERE answered_within_threshold) AS answered_within_threshold,
       count(*) FILTER (WHERE abandoned_within_threshold) AS abandoned_within_threshold,
       count(*) FILTER (WHERE removed_within_threshold) AS removed_within_threshold,
       round(count(*) FILTER (WHERE removed_within_threshold)::numeric / count(*), 4) AS connect_service_level,
       round(count(*) FILTER (WHERE answered_within_threshold)::numeric / count(*), 4) AS answered_service_level,
       round(avg(queue_s) FILTER (WHERE answered), 2) AS average_speed_of_answer_s,
       round(avg(queue_s) FILTER (WHERE abandoned), 2) AS average_queue_abandon_time_s,
       round(avg(handle_s) FILTER (WHERE answered), 2) AS average_handle_time_s,
       round(avg(acw_s) FILTER (WHERE answered), 2) AS average_after_contact_work_s,
       round(count(*) FILTER (WHERE abandoned)::numeric / count(*), 4) AS abandonment_rate,
       max(queue_s) AS max_queued_s,
       coalesce(sum(agent_connection_attempts), 0) AS agent_connection_attempts
FROM contact_outcome
WHERE queued
GROUP BY queue, interval_start;

CREATE VIEW store_day_metrics AS
SELECT coalesce(o.store_id, '(unknown)') AS store_id,
       b.business_date,
       b.day_type,
       count(*) FILTER (WHERE o.first_contact) AS contacts,
       count(*) AS contact_records,
       count(*) FILTER (WHERE o.first_contact AND NOT o.queued AND NOT o.handled AND o.next_contact_id IS NULL)
           AS ended_in_flow,
       count(*) FILTER (WHERE o.queued) AS queued,
       count(*) FILTER (WHERE o.answered) AS answered,
       count(*) FILTER (WHERE o.abandoned) AS abandoned,
       count(*) FILTER (WHERE o.callback_requested) AS callbacks_requested,
       count(*) FILTER (WHERE o.handled) AS contacts_handled,
       count(*) FILTER (WHERE o.handled AND o.initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER'))
           AS contacts_handled_incoming,
       count(*) FILTER (WHERE o.handled AND o.initiation_method = 'OUTBOUND') AS contacts_handled_outbound,
       count(*) FILTER (WHERE o.handled AND o.initiation_method = 'CALLBACK') AS callback_contacts_handled,
       count(*) FILTER (WHERE o.transferred_out) AS transferred_out,
       count(*) FILTER (WHERE o.transferred_out_external) AS transferred_out_external,
       round(count(*) FILTER (WHERE o.removed_within_threshold)::numeric
             / nullif(count(*) FILTER (WHERE o.queued), 0), 4) AS connect_service_level,
       round(count(*) FILTER (WHERE o.answered_within_threshold)::numeric
             / nullif(count(*) FILTER (WHERE o.queued), 0), 4) AS answered_service_level,
       round(avg(o.queue_s) FILTER (WHERE o.answered), 2) AS average_speed_of_answer_s,
       round(avg(o.handle_s) FILTER (WHERE o.handled), 2) AS average_handle_time_s,
       round(avg(o.acw_s) FILTER (WHERE o.handled), 2) AS average_after_contact_work_s,
       round(count(*) FILTER (WHERE o.abandoned)::numeric / nullif(count(*) FILTER (WHERE o.queued), 0), 4)
           AS abandonment_rate,
       coalesce(sum(o.agent_connection_attempts), 0) AS agent_connection_attempts
FROM contact_outcome o
CROSS JOIN LATERAL store_business_day_at(o.store_id, o.initiation_ts) AS b
WHERE o.initiation_ts IS NOT NULL
GROUP BY coalesce(o.store_id, '(unknown)'), b.business_date, b.day_type;

CREATE VIEW agent_contact_interval_metrics AS
SELECT agent_arn,
       agent_username AS username,
       to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900) AS interval_start,
       to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900) + interval '15 minutes'
           AS interval_end,
       max(agent_hierarchy_level1) AS agent_hierarchy_level1,
       max(agent_hierarchy_level2) AS agent_hierarchy_level2,
       max(agent_hierarchy_level3) AS agent_hierarchy_level3,
       max(agent_hierarchy_level4) AS agent_hierarchy_level4,
       max(agent_hierarchy_level5) AS agent_hierarchy_level5,
       count(*) AS contacts_handled,
       count(*) FILTER (WHERE initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER'))
           AS contacts_handled_incoming,
       count(*) FILTER (WHERE initiation_method = 'OUTBOUND') AS contacts_handled_outbound,
       count(*) FILTER (WHERE initiation_method = 'CALLBACK') AS callback_contacts_handled,
       count(*) FILTER (WHERE transferred_out) AS transferred_out,
       count(*) FILTER (WHERE transferred_out_external) AS transferred_out_external,
       round(avg(handle_s), 2) AS average_handle_time_s,
       round(avg(acw_s), 2) AS average_after_contact_work_s
FROM contact_outcome
WHERE handled
GROUP BY agent_arn, agent_username, to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900);

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

CREATE VIEW agent_status_interval AS
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
GROUP BY s.agent_arn, i.interval_start, s.activity, s.status_name, s.status_type;

COMMENT ON VIEW agent_status_interval IS
'Seconds per agent, 15-minute interval, activity and status. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s).';

CREATE VIEW agent_interval_metrics AS
WITH totals AS (
    SELECT agent_arn,
           max(username) AS username,
           interval_start,
           coalesce(sum(seconds) FILTER (WHERE activity = 'available'), 0) AS available_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'connecting'), 0) AS connecting_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'onContact'), 0) AS on_contact_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'afterContactWork'), 0) AS after_contact_work_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'error'), 0) AS error_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'customStatus'), 0) AS custom_status_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'offline'), 0) AS offline_s,
           coalesce(sum(seconds) FILTER (
               WHERE activity IN ('onContact', 'afterContactWork') AND status_type = 'ROUTABLE'), 0)
               AS agent_on_contact_s,
           coalesce(sum(seconds) FILTER (
               WHERE activity IN ('available', 'error') AND status_type = 'ROUTABLE'), 0) AS agent_idle_s
    FROM agent_status_interval
    GROUP BY agent_arn, interval_start
)
SELECT agent_arn, username, interval_start, interval_start + interval '15 minutes' AS interval_end,
       available_s, connecting_s, on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s,
       agent_on_contact_s, agent_idle_s,
       round(agent_on_contact_s / nullif(agent_on_contact_s + agent_idle_s, 0), 4) AS occupancy
FROM totals;

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
        EXECUTE 'REVOKE ALL ON contact_record, agent_event, contact_event, dead_letter, consumer_offset FROM switchboard_analyst';
        EXECUTE 'GRANT SELECT ON contact_record_analyst, contact_outcome, queue_interval_metrics, store_day_metrics,
                 agent_contact_interval_metrics, agent_activity_segment, agent_status_interval, agent_interval_metrics,
                 calendar_day, analytics_setting, store, store_business_day TO switchboard_analyst';
    END IF;
END
$$;
