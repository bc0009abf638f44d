extension SwitchboardSchema {
    /// The `contact_record` columns a contact's contribution to the rollups depends on.
    static let rollupContactColumns = [
        "contact_id", "initial_contact_id", "next_contact_id", "initiation_method", "initiation_ts", "disconnect_ts",
        "disconnect_reason", "store_id", "queue_arn", "queue_name", "enqueue_ts", "dequeue_ts", "queue_duration_s",
        "connected_to_agent_ts", "agent_interaction_s", "customer_hold_s", "acw_s", "agent_connection_attempts",
        "transfer_completed_ts",
    ]

    /// The rollups' upkeep in the writer's transaction.
    ///
    /// The writer upserts the rows, then calls `rollup_apply_contacts(written ids)` (since
    /// migration 10 `rollup_apply_written()`, which reads the written rows from a stash the
    /// statement triggers fill) and `rollup_apply_agents(agents, first, last event time)`. Both first take a transaction-scoped
    /// advisory lock, so the rollup work of concurrent transactions (two lanes, an import, a
    /// zombie) runs one at a time, each seeing everything committed before it: a contact and its
    /// next contact written by two lanes at once are both classified with each other.
    ///
    /// Contacts are applied as signed deltas, proportional to the batch: −1 × the contribution of
    /// each replaced version (captured by a statement trigger's transition table, so it is exactly
    /// the version the version guard replaced), +1 × the new one; plus, for contacts whose next
    /// contact is in the batch, the change of their transfer or callback classification. A
    /// bucket's `max_queued_s` cannot be decremented: when a removed value may have been the
    /// maximum the row is marked `max_stale` and recomputed from the raw rows of that interval.
    /// Agent intervals are recomputed from the raw events (a new event shortens the previous
    /// segment): from the agent's first new event to 10 minutes after its last.
    static let rollupMaintenance =
        [
            """
            CREATE FUNCTION rollup_interval(ts timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS
            $$ SELECT to_timestamp(floor(extract(epoch FROM ts) / 900) * 900) $$
            """,
            """
            COMMENT ON FUNCTION rollup_interval(timestamptz) IS
            'The start of the 15-minute interval (aligned to the epoch) holding an instant, as the views bucket.'
            """,
            // 0x53574252, "SWBR" in ASCII.
            "CREATE FUNCTION rollup_lock() RETURNS void LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(1398227538) $$",
            """
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
            $$
            """,
            """
            COMMENT ON FUNCTION agent_event_activity(text, text, text) IS
            'The activity of agent_activity_segment (Connect''s Agent Activity precedence) from an event''s type, contact_state and status_type.'
            """,
            ensureReplacedStash,
            """
            CREATE FUNCTION contact_record_stash_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM rollup_ensure_stash();
                -- The first replaced version of a contact in a transaction is the committed one.
                INSERT INTO pg_temp.rollup_replaced_contact
                SELECT \(rollupContactColumns.joined(separator: ", ")) FROM replaced
                ON CONFLICT (contact_id) DO NOTHING;
                RETURN NULL;
            END
            $$
            """,
        ] + replacedVersionTrigger + [
            applyContacts,
            """
            COMMENT ON FUNCTION rollup_apply_contacts(text[]) IS
            'Applies the contacts just written (inserted or replaced) in this transaction to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.'
            """,
            insertAgents,
            """
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
            $$
            """,
            """
            COMMENT ON FUNCTION rollup_apply_agents(text[], timestamptz[], timestamptz[]) IS
            'Recomputes the agent rollups of each agent from the interval of its first new event (p_first) to 10 minutes after its last (p_last). Called by the ingest writer after inserting events.'
            """,
        ]

    /// `rollup_ensure_stash()`: the session's temporary table of replaced versions, created on
    /// first use (migration 10 adds the written rows' beside it).
    static let ensureReplacedStash =
        """
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
        $$
        """

    /// The statement trigger that stashes the versions the version guard replaced (re-created on
    /// the partitioned table by migration 10).
    static let replacedVersionTrigger = [
        """
        CREATE TRIGGER contact_record_rollup_replaced
        AFTER UPDATE ON contact_record
        REFERENCING OLD TABLE AS replaced
        FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_replaced()
        """,
        """
        COMMENT ON TRIGGER contact_record_rollup_replaced ON contact_record IS
        'Keeps the versions the ingest''s version guard replaced, for rollup_apply_contacts to take their contributions off the rollups.'
        """,
    ]

    /// `rollup_apply_contacts(ids)`: the signed contributions of the written contacts, their
    /// replaced versions and their previous contacts, summed per bucket and added to the rollups.
    ///
    /// The classification (``classification(materialized:)``) repeats `contact_outcome`'s with
    /// the settings read once (a SQL function with a subquery is not inlined: it would run per
    /// row); ``RollupStore/differences()`` and the tests compare the views with the original.
    static let applyContacts = applyContactsFunction(
        "CREATE FUNCTION",
        previousJoins: """
                    JOIN contact_record r ON r.next_contact_id = k.contact_id
                    JOIN contact_record n ON n.contact_id = r.next_contact_id
                    LEFT JOIN pre o ON o.contact_id = r.next_contact_id
            """,
        queueWrite: """
                ), queue_updated AS (
                    UPDATE queue_interval_rollup t SET
                        \(RollupSums.additions(RollupSums.queueCounts, sums: RollupSums.queueSums, target: "t", delta: "d")),
                        queue_name = greatest(t.queue_name, d.added_name),
                        max_queued_s = greatest(t.max_queued_s, d.added_max),
                        max_stale = t.max_stale OR coalesce(d.removed_max >= t.max_queued_s, false)
                            OR coalesce(d.removed_name >= t.queue_name, false)
                    FROM queue_delta d
                    WHERE t.queue = d.queue AND t.interval_start = d.interval_start
                    RETURNING 1
                ), queue_inserted AS (
                    INSERT INTO queue_interval_rollup (queue, interval_start, queue_name, max_queued_s, max_stale,
                        \(RollupSums.columns(RollupSums.queueCounts, sums: RollupSums.queueSums).joined(separator: ", ")))
                    SELECT d.queue, d.interval_start, d.added_name, d.added_max,
                           d.removed_max IS NOT NULL OR d.removed_name IS NOT NULL,
                           \(RollupSums.columns(RollupSums.queueCounts, sums: RollupSums.queueSums).map { "d.\($0)" }
                           .joined(separator: ", "))
                    FROM queue_delta d
                    WHERE NOT EXISTS (
                        SELECT 1 FROM queue_interval_rollup t WHERE t.queue = d.queue AND t.interval_start = d.interval_start)
                    RETURNING 1
            """,
        storeDelta: storeDelta)

    /// Where the text of ``applyContactsFunction(_:previousJoins:queueWrite:storeDelta:written:)``
    /// finds the contacts the batch wrote.
    struct WrittenContacts {
        /// The function's name and parameters.
        var signature: String
        /// The query of the `batch` CTE: the written contacts' ids.
        var batch: String
        /// The `FROM` of the written rows, as `r`.
        var rows: String
        /// The statements that empty the stashes at the end.
        var cleanup: String

        /// Migrations 7–9, `rollup_apply_contacts(ids)`: each written contact read back by key.
        static let readBack = WrittenContacts(
            signature: "rollup_apply_contacts(p_ids text[])",
            batch: "SELECT DISTINCT id AS contact_id FROM unnest(p_ids) AS id",
            rows: "FROM batch b\n        JOIN contact_record r ON r.contact_id = b.contact_id",
            cleanup: "DELETE FROM pg_temp.rollup_replaced_contact;"
        )

        /// Migration 10, `rollup_apply_written()`: the rows the statement triggers stashed as the
        /// upsert wrote them (the key alone, `contact_id`, would probe every monthly partition).
        static let stashed = WrittenContacts(
            signature: "rollup_apply_written()",
            batch: "SELECT DISTINCT contact_id FROM pg_temp.rollup_written_contact",
            rows: "FROM pg_temp.rollup_written_contact r",
            cleanup: "DELETE FROM pg_temp.rollup_replaced_contact;\n    DELETE FROM pg_temp.rollup_written_contact;"
        )
    }

    /// The text of `rollup_apply_contacts`, shared by migration 7 (``applyContacts``) and 8
    /// (``applyContactsByKey``), which differ in how they find the previous contacts (the joins
    /// after `FROM batch k`, ending with `pre o`), write the queue buckets (CTEs from
    /// `), queue_…`) and file the store days (CTEs from `), …` to `store_delta`).
    static func applyContactsFunction(
        _ create: String, previousJoins: String, queueWrite: String, storeDelta: String,
        written: WrittenContacts = .readBack
    ) -> String {
        """
        \(create) \(written.signature) RETURNS void LANGUAGE plpgsql
        SET plan_cache_mode = force_custom_plan SET jit = off AS $fn$
        DECLARE
            -- Read once: a SQL function with a subquery runs per row, not inlined.
            v_threshold integer := analytics_threshold_seconds();
            v_time_zone text := analytics_time_zone();
        BEGIN
            PERFORM rollup_lock();
            PERFORM rollup_ensure_stash();
            WITH batch AS MATERIALIZED (
                \(written.batch)
            ), pre AS MATERIALIZED (
                SELECT p.* FROM pg_temp.rollup_replaced_contact p JOIN batch b USING (contact_id)
            ), previous AS MATERIALIZED (
                -- Contacts outside the batch whose next contact is in it: only that contact's
                -- initiation method (callback, transfer) matters to them.
                SELECT \(rollupContactColumns.map { "r.\($0)" }.joined(separator: ", ")),
                       o.initiation_method AS old_next_method, n.initiation_method AS new_next_method
                FROM batch k
        \(previousJoins)
                WHERE NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)
            ), side AS (
                SELECT 1 AS sign, \(rollupContactColumns.map { "r.\($0)" }.joined(separator: ", ")),
                       n.initiation_method AS next_initiation_method
                \(written.rows)
                LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
                UNION ALL
                SELECT -1, \(rollupContactColumns.map { "p.\($0)" }.joined(separator: ", ")),
                       CASE WHEN nb.contact_id IS NULL THEN n.initiation_method ELSE np.initiation_method END
                FROM pre p
                LEFT JOIN batch nb ON nb.contact_id = p.next_contact_id
                LEFT JOIN pre np ON np.contact_id = p.next_contact_id
                LEFT JOIN contact_record n ON n.contact_id = p.next_contact_id
                UNION ALL
                SELECT s.sign, \(rollupContactColumns.map { "d.\($0)" }.joined(separator: ", ")),
                       CASE WHEN s.sign > 0 THEN d.new_next_method ELSE d.old_next_method END
                FROM previous d CROSS JOIN (VALUES (1), (-1)) AS s(sign)
                WHERE d.old_next_method IS DISTINCT FROM d.new_next_method
            \(classification(materialized: true))
            ), queue_delta AS MATERIALIZED (
                SELECT queue, interval_start,
                       max(queue_name) FILTER (WHERE sign > 0) AS added_name,
                       max(queue_name) FILTER (WHERE sign < 0) AS removed_name,
                       max(queue_s) FILTER (WHERE sign > 0) AS added_max,
                       max(queue_s) FILTER (WHERE sign < 0) AS removed_max,
                       \(RollupSums.aggregates(RollupSums.queueCounts, sums: RollupSums.queueSums, sign: "sign"))
                FROM outcome
                WHERE queued
                GROUP BY queue, interval_start
        \(queueWrite)
            \(storeDelta)
            INSERT INTO store_day_rollup AS t (store_id, business_date, day_type,
                \(RollupSums.columns(RollupSums.storeCounts, sums: RollupSums.storeSums).joined(separator: ", ")))
            SELECT store_id, business_date, day_type,
                   \(RollupSums.columns(RollupSums.storeCounts, sums: RollupSums.storeSums).joined(separator: ", "))
            FROM store_delta
            ON CONFLICT (store_id, business_date, day_type) DO UPDATE SET
                \(RollupSums.additions(RollupSums.storeCounts, sums: RollupSums.storeSums, target: "t", delta: "EXCLUDED"));

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

            \(written.cleanup)
        END
        $fn$
        """
    }

    /// `rollup_insert_agents(agents, lo, hi)`: inserts the agent rollup rows of each agent's
    /// intervals `lo` … `hi` (interval starts), computed from the raw events; the caller deleted
    /// them first.
    ///
    /// A segment lasts until the agent's next event, at most 10 minutes; the events from 10 minutes
    /// before `lo` to 25 minutes after `hi` decide every segment that touches those intervals. An
    /// agent's last segment counts its full 10 minutes (the views take off the part after now()).
    static let insertAgents = """
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
        $fn$
        """

    /// The CTEs after `side` (rows of `contact_record`'s columns with `sign` and
    /// `next_initiation_method`): `contact_outcome`'s classification, as `outcome`. Uses the
    /// plpgsql variables `v_threshold` and `v_time_zone`.
    static func classification(materialized: Bool) -> String {
        """
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
        ), outcome AS \(materialized ? "MATERIALIZED " : "")(
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
        """
    }

    /// The CTE `store_delta`: `outcome` summed per store, business day and day type
    /// (`store_business_day_at` and `day_type` as joins).
    static let storeDelta = """
        ), store_delta AS (
            -- store_business_day_at(store_id, initiation_ts) and day_type(date), as joins.
            SELECT coalesce(o.store_id, '(unknown)') AS store_id, b.business_date,
                   coalesce(d.day_type, CASE
                       WHEN h0.day IS NOT NULL THEN 'holiday'
                       WHEN h1.day IS NOT NULL THEN 'pre_holiday'
                       WHEN extract(isodow FROM b.business_date) IN (6, 7) THEN 'weekend'
                       ELSE 'weekday' END) AS day_type,
                   \(RollupSums.aggregates(RollupSums.storeCounts, sums: RollupSums.storeSums, sign: "o.sign"))
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
        """
}
