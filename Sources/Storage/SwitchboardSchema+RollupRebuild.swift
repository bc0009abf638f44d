extension SwitchboardSchema {
    /// Recomputing the rollups from the raw tables: `rollup_rebuild(from, to)` (`switchboard rollup
    /// rebuild`) and `rollup_sync_definitions()`, which the stores of settings, stores, business
    /// days and holidays call in their transaction.
    ///
    /// Store days depend on the calendar tables and the settings, queue intervals on the
    /// threshold: a rollup computed under other definitions would take a replaced contact's
    /// contribution off the wrong bucket. So every change of them updates the contact rollups in
    /// the same transaction: a changed setting, store time zone or holiday (a fingerprint of them
    /// in `rollup_state`) rebuilds them all; changed, added or removed business days (against
    /// `rollup_business_day_snapshot`, what the rollups were computed with) recompute the store
    /// days around them only. Rewriting the same calendar costs a comparison.
    static let rollupRebuild = [
        """
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
                SELECT 1 AS sign, \(rollupContactColumns.map { "r.\($0)" }.joined(separator: ", ")), n.initiation_method AS next_initiation_method
                FROM contact_record r
                LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
                WHERE r.enqueue_ts >= v_lo AND r.enqueue_ts < v_hi
            \(classification(materialized: false))
            )
            INSERT INTO queue_interval_rollup (queue, interval_start, queue_name, max_queued_s,
                \(RollupSums.columns(RollupSums.queueCounts, sums: RollupSums.queueSums).joined(separator: ", ")))
            SELECT queue, interval_start, max(queue_name), max(queue_s),
                   \(RollupSums.aggregates(RollupSums.queueCounts, sums: RollupSums.queueSums, sign: "sign"))
            FROM outcome
            WHERE queued
            GROUP BY queue, interval_start
            -- In time order, as the ingest writes them: a day's rows share pages.
            ORDER BY interval_start, queue;

            DELETE FROM store_day_rollup
            WHERE (v_first IS NULL OR business_date >= v_first) AND (v_last IS NULL OR business_date <= v_last);
            WITH side AS (
                SELECT 1 AS sign, \(rollupContactColumns.map { "r.\($0)" }.joined(separator: ", ")), n.initiation_method AS next_initiation_method
                FROM contact_record r
                LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
                WHERE r.initiation_ts IS NOT NULL
                  -- A business date is the local date or the one before, in any time zone (±14 h).
                  AND (v_first IS NULL OR r.initiation_ts >= v_first - 3)
                  AND (v_last IS NULL OR r.initiation_ts < v_last + 4)
            \(classification(materialized: false))
            \(storeDelta)
            INSERT INTO store_day_rollup (store_id, business_date, day_type,
                \(RollupSums.columns(RollupSums.storeCounts, sums: RollupSums.storeSums).joined(separator: ", ")))
            SELECT store_id, business_date, day_type,
                   \(RollupSums.columns(RollupSums.storeCounts, sums: RollupSums.storeSums).joined(separator: ", "))
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
        $fn$
        """,
        """
        CREATE FUNCTION rollup_definitions_fingerprint() RETURNS text LANGUAGE sql STABLE AS $$
            SELECT md5(concat_ws('|',
                analytics_threshold_seconds()::text,
                analytics_time_zone(),
                (SELECT string_agg(concat_ws(',', store_id, time_zone), ';' ORDER BY store_id) FROM store),
                (SELECT string_agg(day::text, ';' ORDER BY day) FROM calendar_day)))
        $$
        """,
        """
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
                SELECT 1 AS sign, \(rollupContactColumns.map { "r.\($0)" }.joined(separator: ", ")), n.initiation_method AS next_initiation_method
                FROM contact_record r
                LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
                WHERE r.contact_id IN (
                    SELECT c.contact_id
                    FROM unnest(v_stores, v_dates) AS k(store_id, business_date)
                    JOIN contact_record c ON c.store_id = k.store_id
                        AND c.initiation_ts >= k.business_date - 3 AND c.initiation_ts < k.business_date + 4)
            \(classification(materialized: false))
            \(storeDelta)
            INSERT INTO store_day_rollup (store_id, business_date, day_type,
                \(RollupSums.columns(RollupSums.storeCounts, sums: RollupSums.storeSums).joined(separator: ", ")))
            SELECT d.store_id, d.business_date, d.day_type,
                   \(RollupSums.columns(RollupSums.storeCounts, sums: RollupSums.storeSums).map { "d.\($0)" }
                       .joined(separator: ", "))
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
        $fn$
        """,
        """
        COMMENT ON FUNCTION rollup_sync_definitions() IS
        'Rebuilds queue_interval_rollup and store_day_rollup when the settings, stores, business days or holidays they were computed with changed; returns whether it did. Called in the transaction that changes them.'
        """,
        """
        CREATE FUNCTION analytics_setting_rollup_sync() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM rollup_sync_definitions();
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER analytics_setting_rollup_sync AFTER INSERT OR UPDATE OR DELETE ON analytics_setting
        FOR EACH STATEMENT EXECUTE FUNCTION analytics_setting_rollup_sync()
        """,
        """
        COMMENT ON TRIGGER analytics_setting_rollup_sync ON analytics_setting IS
        'A changed threshold or business time zone rebuilds the contact rollups in the same transaction.'
        """,
        """
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
        $fn$
        """,
        """
        CREATE FUNCTION rollup_instant(p_value text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
            SELECT CASE WHEN p_value ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                        THEN p_value::date::timestamp AT TIME ZONE analytics_time_zone()
                        ELSE p_value::timestamptz END
        $$
        """,
        """
        COMMENT ON FUNCTION rollup_instant(text) IS
        'A date (its midnight in analytics_time_zone()) or a timestamptz, as switchboard rollup rebuild --from/--to take them.'
        """,
        """
        COMMENT ON FUNCTION rollup_rebuild(timestamptz, timestamptz) IS
        'Recomputes every rollup from the raw tables for [p_from, p_to) (NULL: unbounded), widened to whole intervals; store days for the business dates (in analytics_time_zone()) of that range. Raw rows dropped by retention are gone: rebuild only ranges whose raw rows are kept.'
        """,
    ]
}
