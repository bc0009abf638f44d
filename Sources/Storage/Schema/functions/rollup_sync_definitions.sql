CREATE OR REPLACE FUNCTION rollup_sync_definitions() RETURNS boolean LANGUAGE plpgsql SET jit = off AS $fn$
DECLARE
    v_stores text[];
    v_dates date[];
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    IF (SELECT definitions_fingerprint FROM rollup_state) IS DISTINCT FROM rollup_definitions_fingerprint() THEN
        PERFORM rollup_rebuild_contacts(NULL, NULL);
        RETURN true;
    END IF;
    -- The business days that changed since the rollups were computed.
    SELECT array_agg(coalesce(c.store_id, s.store_id)), array_agg(coalesce(c.business_date, s.business_date))
    INTO v_stores, v_dates
    FROM store_business_day c
    FULL JOIN rollup_business_day_snapshot s ON s.store_id = c.store_id AND s.business_date = c.business_date
    WHERE c.store_id IS NULL OR s.store_id IS NULL OR c.day_type IS DISTINCT FROM s.day_type
       OR c.closes_at IS DISTINCT FROM s.closes_at;
    IF v_stores IS NULL THEN
        RETURN false;
    END IF;
    -- A day's closing time moves contacts between it and the next day: recompute the store
    -- days around each changed one from the contacts that may belong to them.
    CREATE TEMP TABLE IF NOT EXISTS rollup_changed_day (store_id text, business_date date) ON COMMIT DROP;
    INSERT INTO rollup_changed_day
    SELECT DISTINCT k.store_id, k.business_date + d
    FROM unnest(v_stores, v_dates) AS k(store_id, business_date), generate_series(-1, 1) AS d;
    DELETE FROM store_day_rollup t USING rollup_changed_day k
    WHERE t.store_id = k.store_id AND t.business_date = k.business_date;
    WITH side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts, n.initiation_method AS next_initiation_method
        FROM contact_record r
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        WHERE r.contact_id IN (
            SELECT c.contact_id
            FROM unnest(v_stores, v_dates) AS k(store_id, business_date)
            JOIN contact_record c ON c.store_id = k.store_id
                AND c.initiation_ts >= k.business_date - 3 AND c.initiation_ts < k.business_date + 4)
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
           transferred_out_queue, transferred_out_external,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts
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
    SELECT d.store_id, d.business_date, d.day_type,
           d.contacts, d.contact_records, d.ended_in_flow, d.queued, d.answered, d.abandoned, d.callbacks_requested, d.contacts_handled, d.contacts_handled_incoming, d.contacts_handled_outbound, d.callback_contacts_handled, d.transferred_out, d.transferred_out_external, d.removed_within_threshold, d.answered_within_threshold, d.answered_queue_s, d.answered_queue_s_n, d.handled_handle_s, d.handled_handle_s_n, d.handled_acw_s, d.handled_acw_s_n, d.agent_connection_attempts
    FROM store_delta d
    JOIN rollup_changed_day k ON k.store_id = d.store_id AND k.business_date = d.business_date;
    DELETE FROM rollup_business_day_snapshot s USING unnest(v_stores, v_dates) AS k(store_id, business_date)
    WHERE s.store_id = k.store_id AND s.business_date = k.business_date;
    INSERT INTO rollup_business_day_snapshot (store_id, business_date, day_type, closes_at)
    SELECT c.store_id, c.business_date, c.day_type, c.closes_at
    FROM store_business_day c
    JOIN unnest(v_stores, v_dates) AS k(store_id, business_date)
        ON c.store_id = k.store_id AND c.business_date = k.business_date;
    DROP TABLE rollup_changed_day;
    RETURN true;
END
$fn$;

COMMENT ON FUNCTION rollup_sync_definitions() IS
'Rebuilds queue_interval_rollup and store_day_rollup when the settings, stores, business days or holidays they were computed with changed; returns whether it did. Called in the transaction that changes them.';
