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
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
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

COMMENT ON FUNCTION rollup_apply_written() IS
'Applies the contacts this transaction wrote (stashed by the ingest''s upsert, and the versions it replaced by the trigger on contact_record) to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.';
