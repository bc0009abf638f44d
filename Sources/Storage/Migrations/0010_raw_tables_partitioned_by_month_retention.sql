-- Migration 10: raw tables partitioned by month, retention
--
-- The raw tables partitioned by month, and their retention.

CREATE TABLE raw_retention (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    horizon timestamptz NOT NULL DEFAULT '-infinity',
    keep_months integer,
    applied_at timestamptz
);

INSERT INTO raw_retention DEFAULT VALUES;

COMMENT ON TABLE raw_retention IS
'The retention horizon: raw rows before it were dropped (switchboard retention), and the ingest refuses rows before it (dead_letter). Rollups keep every period.';

CREATE FUNCTION raw_partitioned_tables() RETURNS TABLE (table_name text, key_column text)
LANGUAGE sql IMMUTABLE AS
$$ VALUES ('contact_record', 'initiation_month'), ('agent_event', 'event_ts'), ('contact_event', 'event_ts') $$;

CREATE FUNCTION raw_horizon() RETURNS timestamptz LANGUAGE sql STABLE AS
$$ SELECT horizon FROM raw_retention $$;

CREATE OR REPLACE FUNCTION rollup_ensure_stash() RETURNS void LANGUAGE plpgsql AS $$
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
    IF to_regclass('pg_temp.rollup_written_contact') IS NULL THEN
        CREATE TEMP TABLE rollup_written_contact (LIKE pg_temp.rollup_replaced_contact) ON COMMIT DELETE ROWS;
    END IF;
END
$$;

CREATE FUNCTION contact_record_stash_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only in the ingest's sessions (ingest_write_begin() made the stash): bulk SQL pays nothing.
    IF to_regclass('pg_temp.rollup_written_contact') IS NOT NULL THEN
        INSERT INTO pg_temp.rollup_written_contact
        SELECT contact_id, initial_contact_id, next_contact_id, initiation_method, initiation_ts, disconnect_ts, disconnect_reason, store_id, queue_arn, queue_name, enqueue_ts, dequeue_ts, queue_duration_s, connected_to_agent_ts, agent_interaction_s, customer_hold_s, acw_s, agent_connection_attempts, transfer_completed_ts FROM written;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION ingest_write_begin() RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1398227528);
    PERFORM rollup_ensure_stash();
    RETURN (SELECT horizon FROM raw_retention);
END
$$;

COMMENT ON FUNCTION ingest_write_begin() IS
'Called first in every ingest transaction: holds the retention horizon''s lock shared until commit, readies the rollups'' stashes of replaced and written contacts, and returns the horizon (rows before it are refused).';

DROP FUNCTION rollup_apply_contacts(text[]);

CREATE FUNCTION rollup_apply_written() RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan SET jit = off AS $fn$
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
        FROM batch k
        -- OFFSET 0 keeps each lookup a probe by key: joined, the planner may walk a whole
        -- index (a merge join over contact_record_next) or hash a whole table.
        CROSS JOIN LATERAL (
            SELECT * FROM contact_record x WHERE x.next_contact_id = k.contact_id OFFSET 0
        ) AS r
        CROSS JOIN LATERAL (
            -- r's next contact is k: written through r so that it is read only for those found.
            SELECT x.initiation_method FROM contact_record x WHERE x.contact_id = r.next_contact_id OFFSET 0
        ) AS n
        LEFT JOIN pre o ON o.contact_id = k.contact_id
        WHERE NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)
    ), side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               n.initiation_method AS next_initiation_method
        FROM pg_temp.rollup_written_contact r
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
    ), queue_write AS (
        INSERT INTO queue_interval_rollup AS t (queue, interval_start, queue_name, max_queued_s, max_stale,
            queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts)
        SELECT d.queue, d.interval_start, d.added_name, d.added_max,
               -- A removal no addition covers may have been the bucket's maximum (or greatest name).
               CASE WHEN u.max_s IS NULL AND u.name IS NULL THEN false
                    WHEN e.present IS NULL THEN true
                    ELSE coalesce(u.max_s >= e.max_queued_s, false) OR coalesce(u.name >= e.queue_name, false)
               END,
               d.queued, d.answered, d.abandoned, d.callbacks_requested, d.transferred_out, d.transferred_out_queue, d.transferred_out_external, d.answered_within_threshold, d.abandoned_within_threshold, d.removed_within_threshold, d.answered_queue_s, d.answered_queue_s_n, d.abandoned_queue_s, d.abandoned_queue_s_n, d.answered_handle_s, d.answered_handle_s_n, d.answered_acw_s, d.answered_acw_s_n, d.agent_connection_attempts
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
    DELETE FROM pg_temp.rollup_written_contact;
END
$fn$;

COMMENT ON FUNCTION rollup_apply_written() IS
'Applies the contacts this transaction wrote (stashed by the triggers on contact_record: inserted, or replaced by a newer version) to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.';

CREATE FUNCTION raw_partition_create(p_table text, p_key text, p_month timestamptz) RETURNS boolean
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
    v_from timestamptz := date_trunc('month', p_month, 'UTC');
    v_to timestamptz := date_trunc('month', p_month, 'UTC') + interval '1 month';
    v_name text := p_table || to_char(date_trunc('month', p_month, 'UTC') AT TIME ZONE 'UTC', '"_y"YYYY"m"MM');
BEGIN
    IF to_regclass(v_name) IS NOT NULL OR v_to <= raw_horizon() THEN
        RETURN false;
    END IF;
    -- Created apart and attached: ATTACH takes a lock writers do not conflict with.
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)',
                   v_name, p_table);
    EXECUTE format('WITH moved AS (DELETE FROM %1$I WHERE %2$I >= $1 AND %2$I < $2 RETURNING *) '
                   'INSERT INTO %3$I SELECT * FROM moved', p_table || '_default', p_key, v_name)
    USING v_from, v_to;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                   p_table, v_name, v_from, v_to);
    RETURN true;
END
$$;

CREATE FUNCTION raw_partitions_ensure(p_months timestamptz[] DEFAULT '{}', p_ahead integer DEFAULT 2)
RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    t record;
    m timestamptz;
    v_created integer := 0;
BEGIN
    -- 0x53574250, "SWBP" in ASCII: one creator at a time.
    PERFORM pg_advisory_xact_lock(1398227536);
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        FOR m IN EXECUTE format(
            'SELECT DISTINCT date_trunc(''month'', %1$I, ''UTC'') FROM %2$I
             WHERE %1$I > ''-infinity'' AND %1$I < ''infinity''
             UNION SELECT date_trunc(''month'', m, ''UTC'') FROM unnest($1) AS u(m) WHERE m IS NOT NULL
             UNION SELECT generate_series(date_trunc(''month'', now(), ''UTC''),
                                          now() + make_interval(months => greatest($2, 0)), interval ''1 month'')
             ORDER BY 1', t.key_column, t.table_name || '_default')
        USING p_months, p_ahead
        LOOP
            IF raw_partition_create(t.table_name, t.key_column, m) THEN
                v_created := v_created + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN v_created;
END
$$;

COMMENT ON FUNCTION raw_partitions_ensure(timestamptz[], integer) IS
'Creates the monthly partitions of the raw tables for the given months, the current month and p_ahead months after it, and every month with rows in a default partition (moved into it). Returns how many it created. Never at or before the retention horizon.';

CREATE FUNCTION raw_retention_apply(p_keep_months integer, p_dry_run boolean DEFAULT false)
RETURNS TABLE (partition_name text, range_end timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_horizon timestamptz;
    t record;
    p record;
BEGIN
    IF p_keep_months IS NULL OR p_keep_months < 1 THEN
        RAISE EXCEPTION 'retention must keep at least 1 month (asked: %)', p_keep_months;
    END IF;
    -- Exclusive: waits for the writes that read the horizon, holds later ones back.
    PERFORM pg_advisory_xact_lock(1398227528);
    -- The horizon never moves back: what it dropped is gone.
    SELECT greatest(horizon, date_trunc('month', now(), 'UTC') - make_interval(months => p_keep_months))
    INTO v_horizon FROM raw_retention;
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        FOR p IN
            SELECT c.relname, b.upper
            FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid
            CROSS JOIN LATERAL (
                SELECT substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz
            ) AS b(upper)
            WHERE i.inhparent = t.table_name::regclass AND b.upper <= v_horizon
            ORDER BY b.upper
        LOOP
            partition_name := p.relname;
            range_end := p.upper;
            RETURN NEXT;
            IF NOT p_dry_run THEN
                EXECUTE format('DROP TABLE %I', p.relname);
            END IF;
        END LOOP;
        IF NOT p_dry_run THEN
            EXECUTE format('DELETE FROM %I WHERE %I < $1', t.table_name || '_default', t.key_column)
            USING v_horizon;
        END IF;
    END LOOP;
    IF NOT p_dry_run THEN
        UPDATE raw_retention SET horizon = v_horizon, keep_months = p_keep_months, applied_at = now();
    END IF;
END
$$;

COMMENT ON FUNCTION raw_retention_apply(integer, boolean) IS
'Moves the retention horizon to the start of the UTC month p_keep_months before the current one and drops the raw partitions that end at or before it (p_dry_run: only lists them). Rollups are kept.';

DO $$
DECLARE
    t record;
    v record;
    m timestamptz;
    v_comment text;
    v_key text;
BEGIN
    -- The views that read the raw tables, re-bound to the partitioned tables below.
    CREATE TEMP TABLE raw_view_definition ON COMMIT DROP AS
    SELECT DISTINCT r.ev_class::regclass::text AS view_name, pg_get_viewdef(r.ev_class) AS definition
    FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
    WHERE d.classid = 'pg_rewrite'::regclass
      AND d.refobjid IN (SELECT table_name::regclass FROM raw_partitioned_tables())
      AND r.ev_class NOT IN (SELECT table_name::regclass FROM raw_partitioned_tables());
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        v_comment := obj_description(t.table_name::regclass, 'pg_class');
        EXECUTE format('ALTER TABLE %I RENAME TO %I', t.table_name, t.table_name || '_unpartitioned');
        -- contact_record's key column is new: the month of the initiation (or last update).
        v_key := CASE WHEN t.table_name = 'contact_record'
                      THEN 'date_trunc(''month'', coalesce(initiation_ts, last_update_ts), ''UTC'')'
                      ELSE quote_ident(t.key_column) END;
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING COMMENTS INCLUDING COMPRESSION '
                       'INCLUDING STORAGE%s) PARTITION BY RANGE (%I)',
                       t.table_name, t.table_name || '_unpartitioned',
                       CASE WHEN t.table_name = 'contact_record'
                            THEN ', initiation_month timestamptz NOT NULL' ELSE '' END,
                       t.key_column);
        IF v_comment IS NOT NULL THEN
            EXECUTE format('COMMENT ON TABLE %I IS %L', t.table_name, v_comment);
        END IF;
        EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', t.table_name || '_default', t.table_name);
        FOR m IN EXECUTE format('SELECT DISTINCT date_trunc(''month'', %1$s, ''UTC'') FROM %2$I
                                 WHERE %1$s > ''-infinity'' AND %1$s < ''infinity''',
                                v_key, t.table_name || '_unpartitioned')
        LOOP
            PERFORM raw_partition_create(t.table_name, t.key_column, m);
        END LOOP;
        EXECUTE format('INSERT INTO %I SELECT *%s FROM %I', t.table_name,
                       CASE WHEN t.table_name = 'contact_record' THEN ', ' || v_key ELSE '' END,
                       t.table_name || '_unpartitioned');
    END LOOP;
    FOR v IN SELECT * FROM raw_view_definition LOOP
        EXECUTE format('CREATE OR REPLACE VIEW %s AS %s', v.view_name, v.definition);
    END LOOP;
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        EXECUTE format('DROP TABLE %I', t.table_name || '_unpartitioned');
    END LOOP;
END
$$;

ALTER TABLE contact_record ADD PRIMARY KEY (contact_id, initiation_month);

COMMENT ON COLUMN contact_record.initiation_month IS
'The partition key: the UTC month of initiation_ts (of last_update_ts when the record has no InitiationTimestamp). With contact_id, the key of the row.';

CREATE INDEX contact_record_enqueue ON contact_record (enqueue_ts) WHERE enqueue_ts IS NOT NULL;

CREATE INDEX contact_record_initiation ON contact_record (initiation_ts);

CREATE INDEX contact_record_store ON contact_record (store_id, initiation_ts);

CREATE INDEX contact_record_next ON contact_record (next_contact_id) WHERE next_contact_id IS NOT NULL;

ALTER TABLE agent_event ADD PRIMARY KEY (event_id, event_ts);

CREATE INDEX agent_event_agent_ts ON agent_event (agent_arn, event_ts);

CREATE INDEX agent_event_ts ON agent_event (event_ts);

ALTER TABLE contact_event ADD PRIMARY KEY (event_id, event_ts);

CREATE INDEX contact_event_contact ON contact_event (contact_id, event_ts);

CREATE INDEX contact_event_ts ON contact_event (event_ts);

CREATE TRIGGER contact_record_rollup_replaced
AFTER UPDATE ON contact_record
REFERENCING OLD TABLE AS replaced
FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_replaced();

COMMENT ON TRIGGER contact_record_rollup_replaced ON contact_record IS
'Keeps the versions the ingest''s version guard replaced, for rollup_apply_contacts to take their contributions off the rollups.';

CREATE TRIGGER contact_record_rollup_inserted
AFTER INSERT ON contact_record
REFERENCING NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_written();

CREATE TRIGGER contact_record_rollup_updated
AFTER UPDATE ON contact_record
REFERENCING NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_written();

COMMENT ON TRIGGER contact_record_rollup_inserted ON contact_record IS
'Keeps the rows the ingest writes (in its sessions only), for rollup_apply_written to add their contributions to the rollups without reading them back.';

CREATE TABLE agent_latest_event (
    agent_arn text PRIMARY KEY,
    event_id text NOT NULL,
    event_ts timestamptz NOT NULL,
    event_type text NOT NULL,
    contact_state text,
    status_type text,
    status_name text,
    activity text NOT NULL
);

COMMENT ON TABLE agent_latest_event IS
'Each agent''s latest event (greatest event_ts, then event_id), whose segment the agent views end at now(). Kept by the ingest in its transaction; switchboard rollup rebuild refills it.';

CREATE FUNCTION agent_latest_rebuild() RETURNS void LANGUAGE sql AS $$
    DELETE FROM agent_latest_event;
    INSERT INTO agent_latest_event
    SELECT DISTINCT ON (agent_arn) agent_arn, event_id, event_ts, event_type, contact_state, status_type,
           status_name, activity
    FROM agent_event
    ORDER BY agent_arn, event_ts DESC, event_id DESC;
$$;

SELECT agent_latest_rebuild();

CREATE FUNCTION agent_latest_apply(p_agents text[], p_last timestamptz[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO agent_latest_event AS t
    SELECT DISTINCT ON (e.agent_arn) e.agent_arn, e.event_id, e.event_ts, e.event_type, e.contact_state,
           e.status_type, e.status_name, e.activity
    FROM unnest(p_agents, p_last) AS g(agent_arn, last)
    JOIN agent_event e ON e.agent_arn = g.agent_arn AND e.event_ts = g.last
    ORDER BY e.agent_arn, e.event_id DESC
    ON CONFLICT (agent_arn) DO UPDATE SET
        event_id = EXCLUDED.event_id, event_ts = EXCLUDED.event_ts, event_type = EXCLUDED.event_type,
        contact_state = EXCLUDED.contact_state, status_type = EXCLUDED.status_type,
        status_name = EXCLUDED.status_name, activity = EXCLUDED.activity
    WHERE (EXCLUDED.event_ts, EXCLUDED.event_id) > (t.event_ts, t.event_id);
$$;

COMMENT ON FUNCTION agent_latest_apply(text[], timestamptz[]) IS
'Moves each agent''s latest event forward to its events at p_last (the latest time of the events the ingest just inserted for it). Called by the ingest writer with rollup_apply_agents.';

CREATE OR REPLACE VIEW agent_status_interval AS
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
    FROM agent_latest_event e
    CROSS JOIN LATERAL (SELECT greatest(e.event_ts, now()) AS cut) AS c
    CROSS JOIN LATERAL generate_series(
        rollup_interval(c.cut), e.event_ts + interval '10 minutes' - interval '1 microsecond',
        interval '15 minutes'
    ) AS i(interval_start)
    WHERE e.event_ts > now() - interval '10 minutes'
) AS u
GROUP BY agent_arn, interval_start, activity, status_name, status_type
HAVING sum(seconds) > 0;

SELECT raw_partitions_ensure();
