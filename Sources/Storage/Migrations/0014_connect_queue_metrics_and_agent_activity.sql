-- Migration 14: connect queue metrics and agent activity
--
-- Amazon Connect metrics the queue view lacked, each under its Connect name (docs/analysts.md,
-- "Metric columns"): "Contacts handled", "Contacts transferred out by agent", "Average customer
-- hold time" (AVG_HOLD_TIME, over the answered contacts put on hold) and "Average customer hold
-- time all contacts" (AVG_HOLD_TIME_ALL_CONTACTS), "Average interaction time"
-- (AVG_INTERACTION_TIME) and "Agent non-response" (AGENT_NON_RESPONSE: offers to an agent that
-- rang out or were missed, from the contact records' AgentConnectionAttempts). The queue rollup
-- gains their sums, the upkeep and the rebuild fill them, and queue_interval_metrics_from_raw()
-- is the view's definition computed from the raw rows, for switchboard rollup check. The agent
-- activity names follow Connect's Agent Activity (seven, as agent_activity_segment), the
-- comments point to docs/analysts.md, and a whole rebuild's last step is a function of its own
-- (rollup_record_definitions()), so switchboard rollup rebuild can go month by month.

ALTER TABLE queue_interval_rollup
    ADD COLUMN transferred_out_by_agent bigint NOT NULL DEFAULT 0,
    ADD COLUMN answered_hold_s bigint NOT NULL DEFAULT 0,
    ADD COLUMN answered_held bigint NOT NULL DEFAULT 0,
    ADD COLUMN answered_interaction_s bigint NOT NULL DEFAULT 0,
    ADD COLUMN answered_interaction_s_n bigint NOT NULL DEFAULT 0,
    ADD COLUMN agent_non_response bigint NOT NULL DEFAULT 0;

COMMENT ON COLUMN queue_interval_rollup.answered_held IS
'Answered contacts put on hold (CustomerHoldDuration > 0): the denominator of "Average customer hold time".';

COMMENT ON COLUMN queue_interval_rollup.agent_non_response IS
'Offers of the contacts to an agent that were not answered: AgentConnectionAttempts minus the one that connected.';

CREATE OR REPLACE VIEW contact_outcome AS
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
       mask_phone(transferred_to_endpoint) AS transferred_to_endpoint,
       customer_hold_s,
       agent_interaction_s,
       greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
           AS agent_non_response
FROM classified;

CREATE OR REPLACE VIEW queue_interval_metrics AS
SELECT queue,
       queue_name,
       interval_start,
       interval_start + interval '15 minutes' AS interval_end,
       queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue,
       transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold,
       round(removed_within_threshold::numeric / queued, 4) AS connect_service_level,
       round(answered_within_threshold::numeric / queued, 4) AS answered_service_level,
       round(answered_queue_s::numeric / nullif(answered_queue_s_n, 0), 2) AS average_speed_of_answer_s,
       round(abandoned_queue_s::numeric / nullif(abandoned_queue_s_n, 0), 2) AS average_queue_abandon_time_s,
       round(answered_handle_s::numeric / nullif(answered_handle_s_n, 0), 2) AS average_handle_time_s,
       round(answered_acw_s::numeric / nullif(answered_acw_s_n, 0), 2) AS average_after_contact_work_s,
       round(abandoned::numeric / queued, 4) AS abandonment_rate,
       max_queued_s,
       agent_connection_attempts,
       answered AS contacts_handled,
       transferred_out_by_agent,
       round(answered_hold_s::numeric / nullif(answered_held, 0), 2) AS average_customer_hold_time_s,
       round(answered_hold_s::numeric / nullif(answered, 0), 2) AS average_customer_hold_time_all_contacts_s,
       round(answered_interaction_s::numeric / nullif(answered_interaction_s_n, 0), 2) AS average_interaction_time_s,
       agent_non_response
FROM queue_interval_rollup
WHERE queued > 0;

COMMENT ON VIEW queue_interval_metrics IS
'Queued contacts per queue and 15-minute interval of enqueue_ts (docs/analysts.md), from queue_interval_rollup.';

CREATE FUNCTION queue_interval_metrics_from_raw() RETURNS SETOF queue_interval_metrics LANGUAGE sql STABLE AS $$
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
           coalesce(sum(agent_connection_attempts), 0) AS agent_connection_attempts,
           count(*) FILTER (WHERE handled) AS contacts_handled,
           count(*) FILTER (WHERE transferred_out_by_agent) AS transferred_out_by_agent,
           round(avg(customer_hold_s) FILTER (WHERE answered AND customer_hold_s > 0), 2)
               AS average_customer_hold_time_s,
           round(avg(coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 2)
               AS average_customer_hold_time_all_contacts_s,
           round(avg(agent_interaction_s) FILTER (WHERE answered), 2) AS average_interaction_time_s,
           coalesce(sum(agent_non_response), 0) AS agent_non_response
    FROM contact_outcome
    WHERE queued
    GROUP BY queue, interval_start
$$;

COMMENT ON FUNCTION queue_interval_metrics_from_raw() IS
'queue_interval_metrics computed from the raw contact records (contact_outcome) instead of the rollup: what switchboard rollup check compares the view with. Reads the whole history.';

-- The new sums for the history whose raw rows are kept (retention dropped the rest: there they stay 0).
UPDATE queue_interval_rollup t
SET transferred_out_by_agent = s.transferred_out_by_agent, answered_hold_s = s.answered_hold_s,
    answered_held = s.answered_held, answered_interaction_s = s.answered_interaction_s,
    answered_interaction_s_n = s.answered_interaction_s_n, agent_non_response = s.agent_non_response
FROM (
    SELECT queue, interval_start,
           count(*) FILTER (WHERE transferred_out_by_agent) AS transferred_out_by_agent,
           coalesce(sum(coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 0) AS answered_hold_s,
           count(*) FILTER (WHERE answered AND customer_hold_s > 0) AS answered_held,
           coalesce(sum(agent_interaction_s) FILTER (WHERE answered), 0) AS answered_interaction_s,
           count(*) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL) AS answered_interaction_s_n,
           coalesce(sum(agent_non_response), 0) AS agent_non_response
    FROM contact_outcome
    WHERE queued
    GROUP BY queue, interval_start
) AS s
WHERE t.queue = s.queue AND t.interval_start = s.interval_start;

CREATE OR REPLACE FUNCTION rollup_apply_written() RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET jit = off
-- The stashes have no statistics: estimated far too large, their rows were sorted by
-- store id (text) for merge joins.
SET enable_mergejoin = off AS $fn$
DECLARE
    -- Read once: a SQL function with a subquery runs per row, not inlined.
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    PERFORM rollup_ensure_stash();
    WITH batch AS MATERIALIZED (
        SELECT DISTINCT contact_id FROM pg_temp.rollup_written_contact
    ), pre AS MATERIALIZED (
        SELECT p.* FROM pg_temp.rollup_replaced_contact p JOIN batch b USING (contact_id)
    ), previous AS MATERIALIZED (
        -- Contacts outside the batch whose next contact is in it: only that contact's
        -- initiation method (callback, transfer) matters to them.
        SELECT r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               o.initiation_method AS old_next_method, n.initiation_method AS new_next_method
        -- One scan of each partition's next_contact_id index for all the batch's ids,
        -- not one probe of every partition per batch contact.
        FROM contact_record r
        CROSS JOIN LATERAL (
            -- r's next contact, in the batch: read only for the contacts found.
            SELECT x.initiation_method FROM contact_record x WHERE x.contact_id = r.next_contact_id OFFSET 0
        ) AS n
        LEFT JOIN pre o ON o.contact_id = r.next_contact_id
        -- Only a written contact whose new or replaced version is a callback or a
        -- transfer can change the outcome of a contact that names it as next.
        WHERE r.next_contact_id = ANY (ARRAY(
                  SELECT w.contact_id FROM pg_temp.rollup_written_contact w
                  WHERE w.initiation_method IN ('CALLBACK', 'QUEUE_TRANSFER', 'TRANSFER')
                  UNION ALL
                  SELECT p.contact_id FROM pre p WHERE p.initiation_method IN ('CALLBACK', 'QUEUE_TRANSFER', 'TRANSFER')))
          AND NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)
    ), side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               n.initiation_method AS next_initiation_method
        FROM pg_temp.rollup_written_contact r
        LEFT JOIN LATERAL (
            SELECT x.initiation_method FROM contact_record x
            WHERE r.next_contact_id IS NOT NULL AND x.contact_id = r.next_contact_id OFFSET 0
        ) AS n ON true
        UNION ALL
        SELECT -1, p.contact_id, p.initial_contact_id, p.next_contact_id, p.initiation_method, p.initiation_ts, p.disconnect_ts, p.disconnect_reason, p.store_id, p.queue_arn, p.queue_name, p.enqueue_ts, p.dequeue_ts, p.queue_duration_s, p.connected_to_agent_ts, p.agent_interaction_s, p.customer_hold_s, p.acw_s, p.agent_connection_attempts, p.transfer_completed_ts,
               CASE WHEN nb.contact_id IS NULL THEN n.initiation_method ELSE np.initiation_method END
        FROM pre p
        LEFT JOIN batch nb ON nb.contact_id = p.next_contact_id
        LEFT JOIN pre np ON np.contact_id = p.next_contact_id
        LEFT JOIN LATERAL (
            SELECT x.initiation_method FROM contact_record x
            WHERE p.next_contact_id IS NOT NULL AND x.contact_id = p.next_contact_id OFFSET 0
        ) AS n ON true
        UNION ALL
        SELECT s.sign, d.contact_id, d.initial_contact_id, d.next_contact_id, d.initiation_method, d.initiation_ts, d.disconnect_ts, d.disconnect_reason, d.store_id, d.queue_arn, d.queue_name, d.enqueue_ts, d.dequeue_ts, d.queue_duration_s, d.connected_to_agent_ts, d.agent_interaction_s, d.customer_hold_s, d.acw_s, d.agent_connection_attempts, d.transfer_completed_ts,
               CASE WHEN s.sign > 0 THEN d.new_next_method ELSE d.old_next_method END
        FROM previous d CROSS JOIN (VALUES (1), (-1)) AS s(sign)
        WHERE d.old_next_method IS DISTINCT FROM d.new_next_method
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           handled AND coalesce(next_initiation_method = 'TRANSFER', false) AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS MATERIALIZED (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external, transferred_out_by_agent,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts, customer_hold_s, agent_interaction_s,
           greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
               AS agent_non_response
    FROM classified
    ), queue_delta AS MATERIALIZED (
        SELECT queue, interval_start,
               max(queue_name) FILTER (WHERE sign > 0) AS added_name,
               max(queue_name) FILTER (WHERE sign < 0) AS removed_name,
               max(queue_s) FILTER (WHERE sign > 0) AS added_max,
               max(queue_s) FILTER (WHERE sign < 0) AS removed_max,
               coalesce(sum(sign) FILTER (WHERE true), 0) AS queued,
    coalesce(sum(sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(sign) FILTER (WHERE transferred_out_queue), 0) AS transferred_out_queue,
    coalesce(sum(sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(sign) FILTER (WHERE abandoned_within_threshold), 0) AS abandoned_within_threshold,
    coalesce(sum(sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(sign * queue_s) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s,
    coalesce(sum(sign) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s_n,
    coalesce(sum(sign * handle_s) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s,
    coalesce(sum(sign) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s_n,
    coalesce(sum(sign * acw_s) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s,
    coalesce(sum(sign) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s_n,
    coalesce(sum(sign * agent_connection_attempts), 0) AS agent_connection_attempts,
    coalesce(sum(sign) FILTER (WHERE transferred_out_by_agent), 0) AS transferred_out_by_agent,
    coalesce(sum(sign * coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 0) AS answered_hold_s,
    coalesce(sum(sign) FILTER (WHERE answered AND customer_hold_s > 0), 0) AS answered_held,
    coalesce(sum(sign * agent_interaction_s) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s,
    coalesce(sum(sign) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s_n,
    coalesce(sum(sign * agent_non_response), 0) AS agent_non_response
        FROM outcome
        WHERE queued
        GROUP BY queue, interval_start
    ), queue_write AS (
        INSERT INTO queue_interval_rollup AS t (queue, interval_start, queue_name, max_queued_s, max_stale,
            queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts, transferred_out_by_agent, answered_hold_s, answered_held, answered_interaction_s, answered_interaction_s_n, agent_non_response)
        SELECT d.queue, d.interval_start, d.added_name, d.added_max,
               -- A removal no addition covers may have been the bucket's maximum (or greatest name).
               CASE WHEN u.max_s IS NULL AND u.name IS NULL THEN false
                    WHEN e.present IS NULL THEN true
                    ELSE coalesce(u.max_s >= e.max_queued_s, false) OR coalesce(u.name >= e.queue_name, false)
               END,
               d.queued, d.answered, d.abandoned, d.callbacks_requested, d.transferred_out, d.transferred_out_queue, d.transferred_out_external, d.answered_within_threshold, d.abandoned_within_threshold, d.removed_within_threshold, d.answered_queue_s, d.answered_queue_s_n, d.abandoned_queue_s, d.abandoned_queue_s_n, d.answered_handle_s, d.answered_handle_s_n, d.answered_acw_s, d.answered_acw_s_n, d.agent_connection_attempts,
               d.transferred_out_by_agent, d.answered_hold_s, d.answered_held, d.answered_interaction_s,
               d.answered_interaction_s_n, d.agent_non_response
        FROM queue_delta d
        CROSS JOIN LATERAL (
            SELECT CASE WHEN d.added_max >= d.removed_max THEN NULL ELSE d.removed_max END AS max_s,
                   CASE WHEN d.added_name >= d.removed_name THEN NULL ELSE d.removed_name END AS name
        ) AS u
        LEFT JOIN LATERAL (
            -- Read only for uncovered removals: a one-time filter skips the probe.
            SELECT true AS present, x.max_queued_s, x.queue_name FROM queue_interval_rollup x
            WHERE (u.max_s IS NOT NULL OR u.name IS NOT NULL)
              AND x.queue = d.queue AND x.interval_start = d.interval_start OFFSET 0
        ) AS e ON true
        ON CONFLICT (queue, interval_start) DO UPDATE SET
            queued = t.queued + EXCLUDED.queued,
    answered = t.answered + EXCLUDED.answered,
    abandoned = t.abandoned + EXCLUDED.abandoned,
    callbacks_requested = t.callbacks_requested + EXCLUDED.callbacks_requested,
    transferred_out = t.transferred_out + EXCLUDED.transferred_out,
    transferred_out_queue = t.transferred_out_queue + EXCLUDED.transferred_out_queue,
    transferred_out_external = t.transferred_out_external + EXCLUDED.transferred_out_external,
    answered_within_threshold = t.answered_within_threshold + EXCLUDED.answered_within_threshold,
    abandoned_within_threshold = t.abandoned_within_threshold + EXCLUDED.abandoned_within_threshold,
    removed_within_threshold = t.removed_within_threshold + EXCLUDED.removed_within_threshold,
    answered_queue_s = t.answered_queue_s + EXCLUDED.answered_queue_s,
    answered_queue_s_n = t.answered_queue_s_n + EXCLUDED.answered_queue_s_n,
    abandoned_queue_s = t.abandoned_queue_s + EXCLUDED.abandoned_queue_s,
    abandoned_queue_s_n = t.abandoned_queue_s_n + EXCLUDED.abandoned_queue_s_n,
    answered_handle_s = t.answered_handle_s + EXCLUDED.answered_handle_s,
    answered_handle_s_n = t.answered_handle_s_n + EXCLUDED.answered_handle_s_n,
    answered_acw_s = t.answered_acw_s + EXCLUDED.answered_acw_s,
    answered_acw_s_n = t.answered_acw_s_n + EXCLUDED.answered_acw_s_n,
    agent_connection_attempts = t.agent_connection_attempts + EXCLUDED.agent_connection_attempts,
    transferred_out_by_agent = t.transferred_out_by_agent + EXCLUDED.transferred_out_by_agent,
    answered_hold_s = t.answered_hold_s + EXCLUDED.answered_hold_s,
    answered_held = t.answered_held + EXCLUDED.answered_held,
    answered_interaction_s = t.answered_interaction_s + EXCLUDED.answered_interaction_s,
    answered_interaction_s_n = t.answered_interaction_s_n + EXCLUDED.answered_interaction_s_n,
    agent_non_response = t.agent_non_response + EXCLUDED.agent_non_response,
            queue_name = greatest(t.queue_name, EXCLUDED.queue_name),
            max_queued_s = greatest(t.max_queued_s, EXCLUDED.max_queued_s),
            max_stale = t.max_stale OR EXCLUDED.max_stale
        RETURNING 1
    ), located AS MATERIALIZED (
        SELECT o.*, o.store_id IS NULL AS no_store,
               (o.initiation_ts AT TIME ZONE coalesce(s.time_zone, v_time_zone))::date AS local_date
        FROM outcome o
        LEFT JOIN store s ON s.store_id = o.store_id
        WHERE o.initiation_ts IS NOT NULL
    ), day_key AS MATERIALIZED (
        -- store_business_day_at and day_type once per (store, local date) of the batch: a
        -- contact before its store's previous business day closed belongs to that day.
        SELECT k.store_id, k.no_store, k.local_date,
               (SELECT p.closes_at FROM store_business_day p
                WHERE p.store_id = k.store_id AND p.business_date = k.local_date - 1) AS previous_closes_at,
               coalesce(
                   (SELECT d.day_type FROM store_business_day d
                    WHERE d.store_id = k.store_id AND d.business_date = k.local_date),
                   -- Scalar subqueries, not EXISTS: a hashed EXISTS reads the whole calendar.
                   CASE WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date) THEN 'holiday'
                        WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date + 1) THEN 'pre_holiday'
                        WHEN extract(isodow FROM k.local_date) IN (6, 7) THEN 'weekend'
                        ELSE 'weekday' END) AS day_type,
               coalesce(
                   (SELECT d.day_type FROM store_business_day d
                    WHERE d.store_id = k.store_id AND d.business_date = k.local_date - 1),
                   -- Scalar subqueries, not EXISTS: a hashed EXISTS reads the whole calendar.
                   CASE WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date - 1) THEN 'holiday'
                        WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date - 1 + 1) THEN 'pre_holiday'
                        WHEN extract(isodow FROM k.local_date - 1) IN (6, 7) THEN 'weekend'
                        ELSE 'weekday' END) AS previous_day_type
        FROM (SELECT DISTINCT store_id, no_store, local_date FROM located) AS k
    ), store_delta AS (
        SELECT coalesce(l.store_id, '(unknown)') AS store_id, b.business_date, b.day_type,
               coalesce(sum(l.sign) FILTER (WHERE first_contact), 0) AS contacts,
    coalesce(sum(l.sign) FILTER (WHERE true), 0) AS contact_records,
    coalesce(sum(l.sign) FILTER (WHERE first_contact AND NOT queued AND NOT handled AND next_contact_id IS NULL), 0) AS ended_in_flow,
    coalesce(sum(l.sign) FILTER (WHERE queued), 0) AS queued,
    coalesce(sum(l.sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(l.sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(l.sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(l.sign) FILTER (WHERE handled), 0) AS contacts_handled,
    coalesce(sum(l.sign) FILTER (WHERE handled AND initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER')), 0) AS contacts_handled_incoming,
    coalesce(sum(l.sign) FILTER (WHERE handled AND initiation_method = 'OUTBOUND'), 0) AS contacts_handled_outbound,
    coalesce(sum(l.sign) FILTER (WHERE handled AND initiation_method = 'CALLBACK'), 0) AS callback_contacts_handled,
    coalesce(sum(l.sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(l.sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(l.sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(l.sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(l.sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(l.sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(l.sign * handle_s) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s,
    coalesce(sum(l.sign) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s_n,
    coalesce(sum(l.sign * acw_s) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s,
    coalesce(sum(l.sign) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s_n,
    coalesce(sum(l.sign * agent_connection_attempts), 0) AS agent_connection_attempts
        FROM located l
        JOIN day_key k ON k.no_store = l.no_store AND coalesce(k.store_id, '') = coalesce(l.store_id, '')
            AND k.local_date = l.local_date
        CROSS JOIN LATERAL (
            SELECT CASE WHEN l.initiation_ts < k.previous_closes_at THEN l.local_date - 1
                        ELSE l.local_date END AS business_date,
                   CASE WHEN l.initiation_ts < k.previous_closes_at THEN k.previous_day_type
                        ELSE k.day_type END AS day_type
        ) AS b
        GROUP BY 1, 2, 3
    )
    INSERT INTO store_day_rollup AS t (store_id, business_date, day_type,
        contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts)
    SELECT store_id, business_date, day_type,
           contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts
    FROM store_delta
    ON CONFLICT (store_id, business_date, day_type) DO UPDATE SET
        contacts = t.contacts + EXCLUDED.contacts,
    contact_records = t.contact_records + EXCLUDED.contact_records,
    ended_in_flow = t.ended_in_flow + EXCLUDED.ended_in_flow,
    queued = t.queued + EXCLUDED.queued,
    answered = t.answered + EXCLUDED.answered,
    abandoned = t.abandoned + EXCLUDED.abandoned,
    callbacks_requested = t.callbacks_requested + EXCLUDED.callbacks_requested,
    contacts_handled = t.contacts_handled + EXCLUDED.contacts_handled,
    contacts_handled_incoming = t.contacts_handled_incoming + EXCLUDED.contacts_handled_incoming,
    contacts_handled_outbound = t.contacts_handled_outbound + EXCLUDED.contacts_handled_outbound,
    callback_contacts_handled = t.callback_contacts_handled + EXCLUDED.callback_contacts_handled,
    transferred_out = t.transferred_out + EXCLUDED.transferred_out,
    transferred_out_external = t.transferred_out_external + EXCLUDED.transferred_out_external,
    removed_within_threshold = t.removed_within_threshold + EXCLUDED.removed_within_threshold,
    answered_within_threshold = t.answered_within_threshold + EXCLUDED.answered_within_threshold,
    answered_queue_s = t.answered_queue_s + EXCLUDED.answered_queue_s,
    answered_queue_s_n = t.answered_queue_s_n + EXCLUDED.answered_queue_s_n,
    handled_handle_s = t.handled_handle_s + EXCLUDED.handled_handle_s,
    handled_handle_s_n = t.handled_handle_s_n + EXCLUDED.handled_handle_s_n,
    handled_acw_s = t.handled_acw_s + EXCLUDED.handled_acw_s,
    handled_acw_s_n = t.handled_acw_s_n + EXCLUDED.handled_acw_s_n,
    agent_connection_attempts = t.agent_connection_attempts + EXCLUDED.agent_connection_attempts;

    -- A removed value may have been its bucket's maximum: recompute those from the raw rows.
    IF EXISTS (SELECT 1 FROM queue_interval_rollup WHERE max_stale) THEN
    UPDATE queue_interval_rollup t
    SET max_queued_s = m.max_queued_s, queue_name = m.queue_name, max_stale = false
    FROM (
        SELECT s.queue, s.interval_start, x.max_queued_s, x.queue_name
        FROM queue_interval_rollup s
        CROSS JOIN LATERAL (
            SELECT max(o.queue_s) AS max_queued_s, max(o.queue_name) AS queue_name
            FROM contact_outcome o
            WHERE o.queued AND o.queue = s.queue
              AND o.enqueue_ts >= s.interval_start AND o.enqueue_ts < s.interval_start + interval '15 minutes'
        ) AS x
        WHERE s.max_stale
    ) AS m
    WHERE t.max_stale AND t.queue = m.queue AND t.interval_start = m.interval_start;
    END IF;

    DELETE FROM pg_temp.rollup_replaced_contact;
    DELETE FROM pg_temp.rollup_written_contact;
END
$fn$;

CREATE FUNCTION rollup_record_definitions() RETURNS void LANGUAGE sql AS $$
    UPDATE rollup_state SET definitions_fingerprint = rollup_definitions_fingerprint();
    DELETE FROM rollup_business_day_snapshot;
    INSERT INTO rollup_business_day_snapshot (store_id, business_date, day_type, closes_at)
    SELECT store_id, business_date, day_type, closes_at FROM store_business_day;
$$;

COMMENT ON FUNCTION rollup_record_definitions() IS
'Records the settings, store time zones, holidays and business days the contact rollups were computed with (a whole rebuild''s last step; switchboard rollup rebuild calls it after rebuilding month by month).';

CREATE OR REPLACE FUNCTION rollup_rebuild_contacts(p_from timestamptz, p_to timestamptz) RETURNS void
LANGUAGE plpgsql SET jit = off AS $fn$
DECLARE
    v_lo timestamptz := coalesce(rollup_interval(p_from), '-infinity');
    v_hi timestamptz := coalesce(rollup_interval(p_to - interval '1 microsecond') + interval '15 minutes',
                                 'infinity');
    v_first date := (p_from AT TIME ZONE analytics_time_zone())::date;
    v_last date := ((p_to - interval '1 microsecond') AT TIME ZONE analytics_time_zone())::date;
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    DELETE FROM queue_interval_rollup WHERE interval_start >= v_lo AND interval_start < v_hi;
    WITH side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts, n.initiation_method AS next_initiation_method
        FROM contact_record r
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        WHERE r.enqueue_ts >= v_lo AND r.enqueue_ts < v_hi
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           handled AND coalesce(next_initiation_method = 'TRANSFER', false) AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external, transferred_out_by_agent,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts, customer_hold_s, agent_interaction_s,
           greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
               AS agent_non_response
    FROM classified
    )
    INSERT INTO queue_interval_rollup (queue, interval_start, queue_name, max_queued_s,
        queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts, transferred_out_by_agent, answered_hold_s, answered_held, answered_interaction_s, answered_interaction_s_n, agent_non_response)
    SELECT queue, interval_start, max(queue_name), max(queue_s),
           coalesce(sum(sign) FILTER (WHERE true), 0) AS queued,
    coalesce(sum(sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(sign) FILTER (WHERE transferred_out_queue), 0) AS transferred_out_queue,
    coalesce(sum(sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(sign) FILTER (WHERE abandoned_within_threshold), 0) AS abandoned_within_threshold,
    coalesce(sum(sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(sign * queue_s) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s,
    coalesce(sum(sign) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s_n,
    coalesce(sum(sign * handle_s) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s,
    coalesce(sum(sign) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s_n,
    coalesce(sum(sign * acw_s) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s,
    coalesce(sum(sign) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s_n,
    coalesce(sum(sign * agent_connection_attempts), 0) AS agent_connection_attempts,
    coalesce(sum(sign) FILTER (WHERE transferred_out_by_agent), 0) AS transferred_out_by_agent,
    coalesce(sum(sign * coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 0) AS answered_hold_s,
    coalesce(sum(sign) FILTER (WHERE answered AND customer_hold_s > 0), 0) AS answered_held,
    coalesce(sum(sign * agent_interaction_s) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s,
    coalesce(sum(sign) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s_n,
    coalesce(sum(sign * agent_non_response), 0) AS agent_non_response
    FROM outcome
    WHERE queued
    GROUP BY queue, interval_start
    -- In time order, as the ingest writes them: a day's rows share pages.
    ORDER BY interval_start, queue;

    DELETE FROM store_day_rollup
    WHERE (v_first IS NULL OR business_date >= v_first) AND (v_last IS NULL OR business_date <= v_last);
    WITH side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts, n.initiation_method AS next_initiation_method
        FROM contact_record r
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        WHERE r.initiation_ts IS NOT NULL
          -- A business date is the local date or the one before, in any time zone (±14 h).
          AND (v_first IS NULL OR r.initiation_ts >= v_first - 3)
          AND (v_last IS NULL OR r.initiation_ts < v_last + 4)
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           handled AND coalesce(next_initiation_method = 'TRANSFER', false) AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external, transferred_out_by_agent,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts, customer_hold_s, agent_interaction_s,
           greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
               AS agent_non_response
    FROM classified
    ), store_delta AS (
    -- store_business_day_at(store_id, initiation_ts) and day_type(date), as joins.
    SELECT coalesce(o.store_id, '(unknown)') AS store_id, b.business_date,
           coalesce(d.day_type, CASE
               WHEN h0.day IS NOT NULL THEN 'holiday'
               WHEN h1.day IS NOT NULL THEN 'pre_holiday'
               WHEN extract(isodow FROM b.business_date) IN (6, 7) THEN 'weekend'
               ELSE 'weekday' END) AS day_type,
           coalesce(sum(o.sign) FILTER (WHERE first_contact), 0) AS contacts,
    coalesce(sum(o.sign) FILTER (WHERE true), 0) AS contact_records,
    coalesce(sum(o.sign) FILTER (WHERE first_contact AND NOT queued AND NOT handled AND next_contact_id IS NULL), 0) AS ended_in_flow,
    coalesce(sum(o.sign) FILTER (WHERE queued), 0) AS queued,
    coalesce(sum(o.sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(o.sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(o.sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(o.sign) FILTER (WHERE handled), 0) AS contacts_handled,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER')), 0) AS contacts_handled_incoming,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method = 'OUTBOUND'), 0) AS contacts_handled_outbound,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method = 'CALLBACK'), 0) AS callback_contacts_handled,
    coalesce(sum(o.sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(o.sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(o.sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(o.sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(o.sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(o.sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(o.sign * handle_s) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s,
    coalesce(sum(o.sign) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s_n,
    coalesce(sum(o.sign * acw_s) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s,
    coalesce(sum(o.sign) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s_n,
    coalesce(sum(o.sign * agent_connection_attempts), 0) AS agent_connection_attempts
    FROM outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (
        SELECT (o.initiation_ts AT TIME ZONE coalesce(s.time_zone, v_time_zone))::date AS local_date
    ) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.initiation_ts < p.closes_at
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    LEFT JOIN store_business_day d ON d.store_id = o.store_id AND d.business_date = b.business_date
    LEFT JOIN calendar_day h0 ON h0.day = b.business_date
    LEFT JOIN calendar_day h1 ON h1.day = b.business_date + 1
    WHERE o.initiation_ts IS NOT NULL
    GROUP BY 1, 2, 3
)
    INSERT INTO store_day_rollup (store_id, business_date, day_type,
        contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts)
    SELECT store_id, business_date, day_type,
           contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts
    FROM store_delta
    WHERE (v_first IS NULL OR business_date >= v_first) AND (v_last IS NULL OR business_date <= v_last)
    ORDER BY business_date, store_id;

    IF p_from IS NULL AND p_to IS NULL THEN
        PERFORM rollup_record_definitions();
    END IF;
END
$fn$;

COMMENT ON VIEW contact_outcome IS
'One row per contact record, classified by Amazon Connect''s definitions (docs/analysts.md): queued, handled (connected to an agent), answered (queued and handled), abandoned (customer disconnected in queue; callbacks and transfers excluded), callback_requested, transfers out, within-threshold flags (analytics_threshold_seconds()), hold and interaction seconds, agent_non_response (offers to an agent not answered).';

COMMENT ON VIEW store_day_metrics IS
'Contacts per store, business day and day type (docs/analysts.md), from store_day_rollup.';

COMMENT ON VIEW agent_interval_metrics IS
'Seconds per agent and 15-minute interval by activity, and Connect''s occupancy (docs/analysts.md), from agent_interval_rollup (intervals that ended over 15 minutes ago) and agent_status_interval.';

COMMENT ON COLUMN agent_event.activity IS
'Connect''s Agent Activity as the console shows it: available | connecting | onContact | afterContactWork | error | customStatus | offline (contacts first, by contact_state''s precedence, then the status; offline for LOGOUT). Events ingested before migration 14 hold the console''s older five (no connecting, no error).';
