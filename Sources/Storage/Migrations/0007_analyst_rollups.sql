-- Migration 7: analyst rollups
--
-- Rollup tables at the analyst views' grains, kept in the ingest's transaction, and the views
-- rebuilt on them (same columns, same meaning).

CREATE TABLE queue_interval_rollup (
    queue text NOT NULL,
    interval_start timestamptz NOT NULL,
    queue_name text,
    queued bigint NOT NULL DEFAULT 0,
    answered bigint NOT NULL DEFAULT 0,
    abandoned bigint NOT NULL DEFAULT 0,
    callbacks_requested bigint NOT NULL DEFAULT 0,
    transferred_out bigint NOT NULL DEFAULT 0,
    transferred_out_queue bigint NOT NULL DEFAULT 0,
    transferred_out_external bigint NOT NULL DEFAULT 0,
    answered_within_threshold bigint NOT NULL DEFAULT 0,
    abandoned_within_threshold bigint NOT NULL DEFAULT 0,
    removed_within_threshold bigint NOT NULL DEFAULT 0,
    answered_queue_s bigint NOT NULL DEFAULT 0,
    answered_queue_s_n bigint NOT NULL DEFAULT 0,
    abandoned_queue_s bigint NOT NULL DEFAULT 0,
    abandoned_queue_s_n bigint NOT NULL DEFAULT 0,
    answered_handle_s bigint NOT NULL DEFAULT 0,
    answered_handle_s_n bigint NOT NULL DEFAULT 0,
    answered_acw_s bigint NOT NULL DEFAULT 0,
    answered_acw_s_n bigint NOT NULL DEFAULT 0,
    agent_connection_attempts bigint NOT NULL DEFAULT 0,
    max_queued_s integer,
    max_stale boolean NOT NULL DEFAULT false,
    PRIMARY KEY (queue, interval_start)
);

COMMENT ON TABLE queue_interval_rollup IS
'contact_outcome of queued contacts summed per queue and 15-minute interval of enqueue_ts: counts, sums of seconds (*_s) and how many values each sum has (*_s_n). queue_interval_metrics reads it. Kept by the ingest in the transaction of the rows; switchboard rollup rebuild recomputes it.';

CREATE TABLE store_day_rollup (
    store_id text NOT NULL,
    business_date date NOT NULL,
    day_type text NOT NULL,
    contacts bigint NOT NULL DEFAULT 0,
    contact_records bigint NOT NULL DEFAULT 0,
    ended_in_flow bigint NOT NULL DEFAULT 0,
    queued bigint NOT NULL DEFAULT 0,
    answered bigint NOT NULL DEFAULT 0,
    abandoned bigint NOT NULL DEFAULT 0,
    callbacks_requested bigint NOT NULL DEFAULT 0,
    contacts_handled bigint NOT NULL DEFAULT 0,
    contacts_handled_incoming bigint NOT NULL DEFAULT 0,
    contacts_handled_outbound bigint NOT NULL DEFAULT 0,
    callback_contacts_handled bigint NOT NULL DEFAULT 0,
    transferred_out bigint NOT NULL DEFAULT 0,
    transferred_out_external bigint NOT NULL DEFAULT 0,
    removed_within_threshold bigint NOT NULL DEFAULT 0,
    answered_within_threshold bigint NOT NULL DEFAULT 0,
    answered_queue_s bigint NOT NULL DEFAULT 0,
    answered_queue_s_n bigint NOT NULL DEFAULT 0,
    handled_handle_s bigint NOT NULL DEFAULT 0,
    handled_handle_s_n bigint NOT NULL DEFAULT 0,
    handled_acw_s bigint NOT NULL DEFAULT 0,
    handled_acw_s_n bigint NOT NULL DEFAULT 0,
    agent_connection_attempts bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, business_date, day_type)
);

COMMENT ON TABLE store_day_rollup IS
'contact_outcome summed per store, business day and day type (store_business_day_at of initiation_ts). store_day_metrics reads it. Rebuilt automatically when the stores, business days, holidays or analytics settings change.';

CREATE TABLE agent_status_rollup (
    agent_arn text NOT NULL,
    interval_start timestamptz NOT NULL,
    activity text NOT NULL,
    status_name text NOT NULL,
    status_type text,
    username text,
    seconds numeric NOT NULL
);

COMMENT ON TABLE agent_status_rollup IS
'Seconds per agent, 15-minute interval, activity and status, unrounded. An agent''s last segment is counted as if it lasted its full 10 minutes; agent_status_interval takes off the part after now().';

CREATE TABLE agent_interval_rollup (
    agent_arn text NOT NULL,
    interval_start timestamptz NOT NULL,
    username text,
    available_s numeric NOT NULL,
    connecting_s numeric NOT NULL,
    on_contact_s numeric NOT NULL,
    after_contact_work_s numeric NOT NULL,
    error_s numeric NOT NULL,
    custom_status_s numeric NOT NULL,
    offline_s numeric NOT NULL,
    agent_on_contact_s numeric NOT NULL,
    agent_idle_s numeric NOT NULL,
    PRIMARY KEY (agent_arn, interval_start)
);

COMMENT ON TABLE agent_interval_rollup IS
'agent_status_rollup per agent and interval, each status''s seconds rounded to milliseconds first (as agent_interval_metrics sums them). agent_interval_metrics reads it for intervals that ended over 15 minutes ago.';

CREATE TABLE rollup_state (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    definitions_fingerprint text
);

INSERT INTO rollup_state DEFAULT VALUES;

COMMENT ON TABLE rollup_state IS
'The fingerprint of the settings, store time zones and holidays the contact rollups were computed with; rollup_sync_definitions() rebuilds them when it changes.';

CREATE TABLE rollup_business_day_snapshot (
    store_id text NOT NULL,
    business_date date NOT NULL,
    day_type text NOT NULL,
    closes_at timestamptz,
    PRIMARY KEY (store_id, business_date)
);

COMMENT ON TABLE rollup_business_day_snapshot IS
'The store_business_day rows store_day_rollup was computed with; rollup_sync_definitions() recomputes the store days around the rows that differ.';

CREATE INDEX contact_record_next ON contact_record (next_contact_id) WHERE next_contact_id IS NOT NULL;

CREATE INDEX agent_event_ts ON agent_event (event_ts);

CREATE INDEX contact_event_ts ON contact_event (event_ts);

CREATE INDEX queue_interval_rollup_interval ON queue_interval_rollup (interval_start);

CREATE INDEX queue_interval_rollup_stale ON queue_interval_rollup (queue, interval_start) WHERE max_stale;

CREATE INDEX store_day_rollup_date ON store_day_rollup (business_date);

CREATE INDEX agent_status_rollup_agent ON agent_status_rollup (agent_arn, interval_start);

CREATE INDEX agent_status_rollup_interval ON agent_status_rollup (interval_start);

CREATE INDEX agent_interval_rollup_interval ON agent_interval_rollup (interval_start);

CREATE FUNCTION rollup_interval(ts timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS
$$ SELECT to_timestamp(floor(extract(epoch FROM ts) / 900) * 900) $$;

COMMENT ON FUNCTION rollup_interval(timestamptz) IS
'The start of the 15-minute interval (aligned to the epoch) holding an instant, as the views bucket.';

CREATE FUNCTION rollup_lock() RETURNS void LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(1398227538) $$;

CREATE FUNCTION agent_event_activity(p_event_type text, p_contact_state text, p_status_type text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN p_event_type = 'LOGOUT' THEN 'offline'
        WHEN p_contact_state IN ('ERROR', 'MISSED', 'REJECTED') THEN 'error'
        WHEN p_contact_state = 'CONNECTED' THEN 'onContact'
        WHEN p_contact_state = 'ENDED' THEN 'afterContactWork'
        WHEN p_contact_state = 'CONNECTING' THEN 'connecting'
        WHEN p_status_type = 'ROUTABLE' THEN 'available'
        WHEN p_status_type IS NULL OR p_status_type = 'OFFLINE' THEN 'offline'
        ELSE 'customStatus'
    END
$$;

COMMENT ON FUNCTION agent_event_activity(text, text, text) IS
'The activity of agent_activity_segment (Connect''s Agent Activity precedence) from an event''s type, contact_state and status_type.';

CREATE FUNCTION rollup_ensure_stash() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('pg_temp.rollup_replaced_contact') IS NULL THEN
        CREATE TEMP TABLE rollup_replaced_contact (
            contact_id text PRIMARY KEY, initial_contact_id text, next_contact_id text,
            initiation_method text, initiation_ts timestamptz, disconnect_ts timestamptz,
            disconnect_reason text, store_id text, queue_arn text, queue_name text, enqueue_ts timestamptz,
            dequeue_ts timestamptz, queue_duration_s integer, connected_to_agent_ts timestamptz,
            agent_interaction_s integer, customer_hold_s integer, acw_s integer,
            agent_connection_attempts integer, transfer_completed_ts timestamptz
        ) ON COMMIT DELETE ROWS;
    END IF;
END
$$;

CREATE FUNCTION contact_record_stash_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM rollup_ensure_stash();
    -- The first replaced version of a contact in a transaction is the committed one.
    INSERT INTO pg_temp.rollup_replaced_contact
    SELECT contact_id, initial_contact_id, next_contact_id, initiation_method, initiation_ts, disconnect_ts, disconnect_reason, store_id, queue_arn, queue_name, enqueue_ts, dequeue_ts, queue_duration_s, connected_to_agent_ts, agent_interaction_s, customer_hold_s, acw_s, agent_connection_attempts, transfer_completed_ts FROM replaced
    ON CONFLICT (contact_id) DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER contact_record_rollup_replaced
AFTER UPDATE ON contact_record
REFERENCING OLD TABLE AS replaced
FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_replaced();

COMMENT ON TRIGGER contact_record_rollup_replaced ON contact_record IS
'Keeps the versions the ingest''s version guard replaced, for rollup_apply_contacts to take their contributions off the rollups.';

CREATE FUNCTION rollup_apply_contacts(p_ids text[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan SET jit = off AS $fn$
DECLARE
    -- Read once: a SQL function with a subquery runs per row, not inlined.
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    PERFORM rollup_ensure_stash();
    WITH batch AS MATERIALIZED (
        SELECT DISTINCT id AS contact_id FROM unnest(p_ids) AS id
    ), pre AS MATERIALIZED (
        SELECT p.* FROM pg_temp.rollup_replaced_contact p JOIN batch b USING (contact_id)
    ), previous AS MATERIALIZED (
        -- Contacts outside the batch whose next contact is in it: only that contact's
        -- initiation method (callback, transfer) matters to them.
        SELECT r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               o.initiation_method AS old_next_method, n.initiation_method AS new_next_method
        FROM batch k
        JOIN contact_record r ON r.next_contact_id = k.contact_id
        JOIN contact_record n ON n.contact_id = r.next_contact_id
        LEFT JOIN pre o ON o.contact_id = r.next_contact_id
        WHERE NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)
    ), side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               n.initiation_method AS next_initiation_method
        FROM batch b
        JOIN contact_record r ON r.contact_id = b.contact_id
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        UNION ALL
        SELECT -1, p.contact_id, p.initial_contact_id, p.next_contact_id, p.initiation_method, p.initiation_ts, p.disconnect_ts, p.disconnect_reason, p.store_id, p.queue_arn, p.queue_name, p.enqueue_ts, p.dequeue_ts, p.queue_duration_s, p.connected_to_agent_ts, p.agent_interaction_s, p.customer_hold_s, p.acw_s, p.agent_connection_attempts, p.transfer_completed_ts,
               CASE WHEN nb.contact_id IS NULL THEN n.initiation_method ELSE np.initiation_method END
        FROM pre p
        LEFT JOIN batch nb ON nb.contact_id = p.next_contact_id
        LEFT JOIN pre np ON np.contact_id = p.next_contact_id
        LEFT JOIN contact_record n ON n.contact_id = p.next_contact_id
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
    coalesce(sum(sign * agent_connection_attempts), 0) AS agent_connection_attempts
        FROM outcome
        WHERE queued
        GROUP BY queue, interval_start
    ), queue_updated AS (
        UPDATE queue_interval_rollup t SET
            queued = t.queued + d.queued,
    answered = t.answered + d.answered,
    abandoned = t.abandoned + d.abandoned,
    callbacks_requested = t.callbacks_requested + d.callbacks_requested,
    transferred_out = t.transferred_out + d.transferred_out,
    transferred_out_queue = t.transferred_out_queue + d.transferred_out_queue,
    transferred_out_external = t.transferred_out_external + d.transferred_out_external,
    answered_within_threshold = t.answered_within_threshold + d.answered_within_threshold,
    abandoned_within_threshold = t.abandoned_within_threshold + d.abandoned_within_threshold,
    removed_within_threshold = t.removed_within_threshold + d.removed_within_threshold,
    answered_queue_s = t.answered_queue_s + d.answered_queue_s,
    answered_queue_s_n = t.answered_queue_s_n + d.answered_queue_s_n,
    abandoned_queue_s = t.abandoned_queue_s + d.abandoned_queue_s,
    abandoned_queue_s_n = t.abandoned_queue_s_n + d.abandoned_queue_s_n,
    answered_handle_s = t.answered_handle_s + d.answered_handle_s,
    answered_handle_s_n = t.answered_handle_s_n + d.answered_handle_s_n,
    answered_acw_s = t.answered_acw_s + d.answered_acw_s,
    answered_acw_s_n = t.answered_acw_s_n + d.answered_acw_s_n,
    agent_connection_attempts = t.agent_connection_attempts + d.agent_connection_attempts,
            queue_name = greatest(t.queue_name, d.added_name),
            max_queued_s = greatest(t.max_queued_s, d.added_max),
            max_stale = t.max_stale OR coalesce(d.removed_max >= t.max_queued_s, false)
                OR coalesce(d.removed_name >= t.queue_name, false)
        FROM queue_delta d
        WHERE t.queue = d.queue AND t.interval_start = d.interval_start
        RETURNING 1
    ), queue_inserted AS (
        INSERT INTO queue_interval_rollup (queue, interval_start, queue_name, max_queued_s, max_stale,
            queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts)
        SELECT d.queue, d.interval_start, d.added_name, d.added_max,
               d.removed_max IS NOT NULL OR d.removed_name IS NOT NULL,
               d.queued, d.answered, d.abandoned, d.callbacks_requested, d.transferred_out, d.transferred_out_queue, d.transferred_out_external, d.answered_within_threshold, d.abandoned_within_threshold, d.removed_within_threshold, d.answered_queue_s, d.answered_queue_s_n, d.abandoned_queue_s, d.abandoned_queue_s_n, d.answered_handle_s, d.answered_handle_s_n, d.answered_acw_s, d.answered_acw_s_n, d.agent_connection_attempts
        FROM queue_delta d
        WHERE NOT EXISTS (
            SELECT 1 FROM queue_interval_rollup t WHERE t.queue = d.queue AND t.interval_start = d.interval_start)
        RETURNING 1
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

    DELETE FROM pg_temp.rollup_replaced_contact;
END
$fn$;

COMMENT ON FUNCTION rollup_apply_contacts(text[]) IS
'Applies the contacts just written (inserted or replaced) in this transaction to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.';

CREATE FUNCTION rollup_insert_agents(p_agents text[], p_lo timestamptz[], p_hi timestamptz[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan SET jit = off AS $fn$
BEGIN
    WITH g AS (
        SELECT * FROM unnest(p_agents, p_lo, p_hi) AS g(agent_arn, lo, hi)
    ), segment AS (
        SELECT g.lo, g.hi, e.agent_arn, e.username,
               agent_event_activity(e.event_type, e.contact_state, e.status_type) AS activity,
               coalesce(e.status_name, e.status_type, e.activity) AS status_name,
               e.status_type,
               e.event_ts AS start_ts,
               least(coalesce(lead(e.event_ts) OVER w, e.event_ts + interval '10 minutes'),
                     e.event_ts + interval '10 minutes') AS end_ts
        FROM g
        JOIN agent_event e ON e.agent_arn = g.agent_arn
            AND e.event_ts >= g.lo - interval '10 minutes' AND e.event_ts < g.hi + interval '25 minutes'
        WINDOW w AS (PARTITION BY e.agent_arn, g.lo ORDER BY e.event_ts, e.event_id)
    ), piece AS (
        SELECT s.agent_arn, s.username, i.interval_start, s.activity, s.status_name, s.status_type,
               extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                - greatest(s.start_ts, i.interval_start)) AS seconds
        FROM segment s
        CROSS JOIN LATERAL generate_series(
            rollup_interval(s.start_ts), s.end_ts - interval '1 microsecond', interval '15 minutes'
        ) AS i(interval_start)
        WHERE s.end_ts > s.start_ts AND i.interval_start BETWEEN s.lo AND s.hi
    ), narrow AS (
        INSERT INTO agent_status_rollup (agent_arn, interval_start, activity, status_name, status_type,
            username, seconds)
        SELECT agent_arn, interval_start, activity, status_name, status_type, max(username), sum(seconds)
        FROM piece
        GROUP BY agent_arn, interval_start, activity, status_name, status_type
        -- In time order, as the ingest writes them: a day's rows share pages.
        ORDER BY interval_start, agent_arn
        RETURNING *
    )
    -- The wide rows from the narrow ones just written, each status's seconds rounded first.
    INSERT INTO agent_interval_rollup (agent_arn, interval_start, username, available_s, connecting_s,
        on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s, agent_on_contact_s,
        agent_idle_s)
    SELECT s.agent_arn, s.interval_start, max(s.username),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'available'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'connecting'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'onContact'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'afterContactWork'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'error'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'customStatus'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'offline'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('onContact', 'afterContactWork') AND s.status_type = 'ROUTABLE'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('available', 'error') AND s.status_type = 'ROUTABLE'), 0)
    FROM narrow s
    GROUP BY s.agent_arn, s.interval_start
    ORDER BY s.interval_start, s.agent_arn;
END
$fn$;

CREATE FUNCTION rollup_apply_agents(p_agents text[], p_first timestamptz[], p_last timestamptz[])
RETURNS void LANGUAGE plpgsql SET jit = off AS $$
DECLARE
    v_agents text[];
    v_lo timestamptz[];
    v_hi timestamptz[];
BEGIN
    PERFORM rollup_lock();
    SELECT array_agg(a), array_agg(rollup_interval(f)), array_agg(rollup_interval(l + interval '10 minutes'))
    INTO v_agents, v_lo, v_hi
    FROM unnest(p_agents, p_first, p_last) AS u(a, f, l);
    IF v_agents IS NULL THEN
        RETURN;
    END IF;
    DELETE FROM agent_status_rollup s USING unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
    WHERE s.agent_arn = g.agent_arn AND s.interval_start BETWEEN g.lo AND g.hi;
    DELETE FROM agent_interval_rollup s USING unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
    WHERE s.agent_arn = g.agent_arn AND s.interval_start BETWEEN g.lo AND g.hi;
    PERFORM rollup_insert_agents(v_agents, v_lo, v_hi);
END
$$;

COMMENT ON FUNCTION rollup_apply_agents(text[], timestamptz[], timestamptz[]) IS
'Recomputes the agent rollups of each agent from the interval of its first new event (p_first) to 10 minutes after its last (p_last). Called by the ingest writer after inserting events.';

CREATE FUNCTION rollup_rebuild_contacts(p_from timestamptz, p_to timestamptz) RETURNS void
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
    )
    INSERT INTO queue_interval_rollup (queue, interval_start, queue_name, max_queued_s,
        queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts)
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
    coalesce(sum(sign * agent_connection_attempts), 0) AS agent_connection_attempts
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
    SELECT store_id, business_date, day_type,
           contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts
    FROM store_delta
    WHERE (v_first IS NULL OR business_date >= v_first) AND (v_last IS NULL OR business_date <= v_last)
    ORDER BY business_date, store_id;

    IF p_from IS NULL AND p_to IS NULL THEN
        UPDATE rollup_state SET definitions_fingerprint = rollup_definitions_fingerprint();
        DELETE FROM rollup_business_day_snapshot;
        INSERT INTO rollup_business_day_snapshot (store_id, business_date, day_type, closes_at)
        SELECT store_id, business_date, day_type, closes_at FROM store_business_day;
    END IF;
END
$fn$;

CREATE FUNCTION rollup_definitions_fingerprint() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT md5(concat_ws('|',
        analytics_threshold_seconds()::text,
        analytics_time_zone(),
        (SELECT string_agg(concat_ws(',', store_id, time_zone), ';' ORDER BY store_id) FROM store),
        (SELECT string_agg(day::text, ';' ORDER BY day) FROM calendar_day)))
$$;

CREATE FUNCTION rollup_sync_definitions() RETURNS boolean LANGUAGE plpgsql SET jit = off AS $fn$
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

CREATE FUNCTION analytics_setting_rollup_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM rollup_sync_definitions();
    RETURN NULL;
END
$$;

CREATE TRIGGER analytics_setting_rollup_sync AFTER INSERT OR UPDATE OR DELETE ON analytics_setting
FOR EACH STATEMENT EXECUTE FUNCTION analytics_setting_rollup_sync();

COMMENT ON TRIGGER analytics_setting_rollup_sync ON analytics_setting IS
'A changed threshold or business time zone rebuilds the contact rollups in the same transaction.';

CREATE FUNCTION rollup_rebuild(p_from timestamptz, p_to timestamptz) RETURNS void LANGUAGE plpgsql
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

CREATE FUNCTION rollup_instant(p_value text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN p_value ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                THEN p_value::date::timestamp AT TIME ZONE analytics_time_zone()
                ELSE p_value::timestamptz END
$$;

COMMENT ON FUNCTION rollup_instant(text) IS
'A date (its midnight in analytics_time_zone()) or a timestamptz, as switchboard rollup rebuild --from/--to take them.';

COMMENT ON FUNCTION rollup_rebuild(timestamptz, timestamptz) IS
'Recomputes every rollup from the raw tables for [p_from, p_to) (NULL: unbounded), widened to whole intervals; store days for the business dates (in analytics_time_zone()) of that range. Raw rows dropped by retention are gone: rebuild only ranges whose raw rows are kept.';

DROP VIEW agent_interval_metrics, agent_status_interval, store_day_metrics, queue_interval_metrics;

CREATE VIEW queue_interval_metrics AS
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
       agent_connection_attempts
FROM queue_interval_rollup
WHERE queued > 0;

COMMENT ON VIEW queue_interval_metrics IS
'Queued contacts per queue and 15-minute interval of enqueue_ts (README, SQL for analysts), from queue_interval_rollup.';

CREATE VIEW store_day_metrics AS
SELECT store_id, business_date, day_type,
       contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested,
       contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled,
       transferred_out, transferred_out_external,
       round(removed_within_threshold::numeric / nullif(queued, 0), 4) AS connect_service_level,
       round(answered_within_threshold::numeric / nullif(queued, 0), 4) AS answered_service_level,
       round(answered_queue_s::numeric / nullif(answered_queue_s_n, 0), 2) AS average_speed_of_answer_s,
       round(handled_handle_s::numeric / nullif(handled_handle_s_n, 0), 2) AS average_handle_time_s,
       round(handled_acw_s::numeric / nullif(handled_acw_s_n, 0), 2) AS average_after_contact_work_s,
       round(abandoned::numeric / nullif(queued, 0), 4) AS abandonment_rate,
       agent_connection_attempts
FROM store_day_rollup
WHERE contact_records > 0;

COMMENT ON VIEW store_day_metrics IS
'Contacts per store, business day and day type (README, SQL for analysts), from store_day_rollup.';

CREATE VIEW agent_status_interval AS
SELECT agent_arn, max(username) AS username, interval_start, activity, status_name, status_type,
       round(sum(seconds), 3) AS seconds
FROM (
    SELECT agent_arn, username, interval_start, activity, status_name, status_type, seconds
    FROM agent_status_rollup
    UNION ALL
    SELECT e.agent_arn, NULL, i.interval_start,
           agent_event_activity(e.event_type, e.contact_state, e.status_type),
           coalesce(e.status_name, e.status_type, e.activity), e.status_type,
           -extract(epoch FROM least(e.event_ts + interval '10 minutes', i.interval_start + interval '15 minutes')
                             - greatest(c.cut, i.interval_start))
    FROM agent_event e
    CROSS JOIN LATERAL (SELECT greatest(e.event_ts, now()) AS cut) AS c
    CROSS JOIN LATERAL generate_series(
        rollup_interval(c.cut), e.event_ts + interval '10 minutes' - interval '1 microsecond',
        interval '15 minutes'
    ) AS i(interval_start)
    WHERE e.event_ts > now() - interval '10 minutes'
      AND NOT EXISTS (
          SELECT 1 FROM agent_event n
          WHERE n.agent_arn = e.agent_arn AND n.event_ts >= e.event_ts
            AND (n.event_ts, n.event_id) > (e.event_ts, e.event_id))
) AS u
GROUP BY agent_arn, interval_start, activity, status_name, status_type
HAVING sum(seconds) > 0;

COMMENT ON VIEW agent_status_interval IS
'Seconds per agent, 15-minute interval, activity and status. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s), and at most until now(). From agent_status_rollup.';

CREATE VIEW agent_interval_metrics AS
WITH totals AS (
    SELECT agent_arn, username, interval_start, available_s, connecting_s, on_contact_s, after_contact_work_s,
           error_s, custom_status_s, offline_s, agent_on_contact_s, agent_idle_s
    FROM agent_interval_rollup
    WHERE interval_start <= now() - interval '15 minutes'
    UNION ALL
    SELECT agent_arn,
           max(username),
           interval_start,
           coalesce(sum(seconds) FILTER (WHERE activity = 'available'), 0),
           coalesce(sum(seconds) FILTER (WHERE activity = 'connecting'), 0),
           coalesce(sum(seconds) FILTER (WHERE activity = 'onContact'), 0),
           coalesce(sum(seconds) FILTER (WHERE activity = 'afterContactWork'), 0),
           coalesce(sum(seconds) FILTER (WHERE activity = 'error'), 0),
           coalesce(sum(seconds) FILTER (WHERE activity = 'customStatus'), 0),
           coalesce(sum(seconds) FILTER (WHERE activity = 'offline'), 0),
           coalesce(sum(seconds) FILTER (
               WHERE activity IN ('onContact', 'afterContactWork') AND status_type = 'ROUTABLE'), 0),
           coalesce(sum(seconds) FILTER (
               WHERE activity IN ('available', 'error') AND status_type = 'ROUTABLE'), 0)
    FROM agent_status_interval
    WHERE interval_start > now() - interval '15 minutes'
    GROUP BY agent_arn, interval_start
)
SELECT agent_arn, username, interval_start, interval_start + interval '15 minutes' AS interval_end,
       available_s, connecting_s, on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s,
       agent_on_contact_s, agent_idle_s,
       round(agent_on_contact_s / nullif(agent_on_contact_s + agent_idle_s, 0), 4) AS occupancy
FROM totals;

COMMENT ON VIEW agent_interval_metrics IS
'Seconds per agent and 15-minute interval by activity, and Connect''s occupancy (README, SQL for analysts), from agent_interval_rollup (intervals that ended over 15 minutes ago) and agent_status_interval.';

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

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
        EXECUTE 'GRANT SELECT ON queue_interval_rollup, store_day_rollup, agent_status_rollup,
                 agent_interval_rollup TO switchboard_analyst';
    END IF;
END
$$;

SELECT rollup_rebuild(NULL, NULL);
