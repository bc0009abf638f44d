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
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
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
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
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
