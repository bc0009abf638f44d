extension SwitchboardSchema {
    /// The raw tables partitioned by month, and their retention.
    ///
    /// `contact_record` is partitioned by its new column `initiation_month` (the UTC month of
    /// `initiation_ts`, or of `last_update_ts` for a record without it), `agent_event` and
    /// `contact_event` by `event_ts`, one partition per calendar month in UTC
    /// (`contact_record_y2026m11`), plus a `_default` partition for a month whose partition does
    /// not exist yet. PostgreSQL's unique indexes on a partitioned table must hold the partition
    /// key, so a contact's key becomes (`contact_id`, `initiation_month`): Amazon Connect sets
    /// `InitiationTimestamp` once, when the contact starts, so every version of a contact shares
    /// the month (a version may still move the initiation within it); an event's time is part of
    /// the event.
    ///
    /// - `raw_partitions_ensure(months, ahead)` creates the partitions of the given months, of
    ///   the current month and `ahead` months after it, and of every month that has rows in a
    ///   default partition (moving them). The ingest calls it when it starts and before writing a
    ///   batch with a month it has not covered yet; it never creates a partition at or before the
    ///   retention horizon.
    /// - `raw_retention_apply(keep_months, dry_run)` (`switchboard retention --keep 13mo`) moves
    ///   the horizon to the start of the UTC month `keep_months` before the current one and drops
    ///   every partition that ends at or before it. The rollups are not touched: they outlive
    ///   the raw rows.
    /// - `ingest_write_begin()`: writers call it first in their transaction. It holds the horizon
    ///   lock shared until commit (retention holds it exclusively, so a drop waits for the writes
    ///   in flight, and later writes see the new horizon). Rows older than the horizon would
    ///   change rollups that can no longer be recomputed (a replaced version whose old row is
    ///   gone, an agent interval without its earlier events), so the writer sends them to the
    ///   dead-letter table instead.
    ///
    /// The migration converts existing tables in place: month partitions for the months their
    /// rows cover, the rows copied, the views that read them re-bound (`CREATE OR REPLACE` with
    /// their own definitions: their grants, comments and dependents stay), the indexes built once
    /// over the copied rows. On a large database this copies every raw row once.
    static let rawPartitions = Migration(
        version: 10,
        name: "raw tables partitioned by month, retention",
        statements: [
            """
            CREATE TABLE raw_retention (
                only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                horizon timestamptz NOT NULL DEFAULT '-infinity',
                keep_months integer,
                applied_at timestamptz
            )
            """,
            "INSERT INTO raw_retention DEFAULT VALUES",
            """
            COMMENT ON TABLE raw_retention IS
            'The retention horizon: raw rows before it were dropped (switchboard retention), and the ingest refuses rows before it (dead_letter). Rollups keep every period.'
            """,
            """
            CREATE FUNCTION raw_partitioned_tables() RETURNS TABLE (table_name text, key_column text)
            LANGUAGE sql IMMUTABLE AS
            $$ VALUES ('contact_record', 'initiation_month'), ('agent_event', 'event_ts'), ('contact_event', 'event_ts') $$
            """,
            """
            CREATE FUNCTION raw_horizon() RETURNS timestamptz LANGUAGE sql STABLE AS
            $$ SELECT horizon FROM raw_retention $$
            """,
            ensureStashes,
            """
            CREATE FUNCTION contact_record_stash_written() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                -- Only in the ingest's sessions (ingest_write_begin() made the stash): bulk SQL pays nothing.
                IF to_regclass('pg_temp.rollup_written_contact') IS NOT NULL THEN
                    INSERT INTO pg_temp.rollup_written_contact
                    SELECT \(rollupContactColumns.joined(separator: ", ")) FROM written;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            // 0x53574248, "SWBH" in ASCII.
            """
            CREATE FUNCTION ingest_write_begin() RETURNS timestamptz LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(1398227528);
                PERFORM rollup_ensure_stash();
                RETURN (SELECT horizon FROM raw_retention);
            END
            $$
            """,
            """
            COMMENT ON FUNCTION ingest_write_begin() IS
            'Called first in every ingest transaction: holds the retention horizon''s lock shared until commit, readies the rollups'' stashes of replaced and written contacts, and returns the horizon (rows before it are refused).'
            """,
            "DROP FUNCTION rollup_apply_contacts(text[])",
            coveredUpkeep("CREATE FUNCTION", written: .stashed),
            """
            COMMENT ON FUNCTION rollup_apply_written() IS
            'Applies the contacts this transaction wrote (stashed by the triggers on contact_record: inserted, or replaced by a newer version) to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.'
            """,
            """
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
            $$
            """,
            """
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
            $$
            """,
            """
            COMMENT ON FUNCTION raw_partitions_ensure(timestamptz[], integer) IS
            'Creates the monthly partitions of the raw tables for the given months, the current month and p_ahead months after it, and every month with rows in a default partition (moved into it). Returns how many it created. Never at or before the retention horizon.'
            """,
            """
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
                            SELECT substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''([^'']+)''\\)')::timestamptz
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
            $$
            """,
            """
            COMMENT ON FUNCTION raw_retention_apply(integer, boolean) IS
            'Moves the retention horizon to the start of the UTC month p_keep_months before the current one and drops the raw partitions that end at or before it (p_dry_run: only lists them). Rollups are kept.'
            """,
            """
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
            $$
            """,
            "ALTER TABLE contact_record ADD PRIMARY KEY (contact_id, initiation_month)",
            """
            COMMENT ON COLUMN contact_record.initiation_month IS
            'The partition key: the UTC month of initiation_ts (of last_update_ts when the record has no InitiationTimestamp). With contact_id, the key of the row.'
            """,
            "CREATE INDEX contact_record_enqueue ON contact_record (enqueue_ts) WHERE enqueue_ts IS NOT NULL",
            "CREATE INDEX contact_record_initiation ON contact_record (initiation_ts)",
            "CREATE INDEX contact_record_store ON contact_record (store_id, initiation_ts)",
            "CREATE INDEX contact_record_next ON contact_record (next_contact_id) WHERE next_contact_id IS NOT NULL",
            "ALTER TABLE agent_event ADD PRIMARY KEY (event_id, event_ts)",
            "CREATE INDEX agent_event_agent_ts ON agent_event (agent_arn, event_ts)",
            "CREATE INDEX agent_event_ts ON agent_event (event_ts)",
            "ALTER TABLE contact_event ADD PRIMARY KEY (event_id, event_ts)",
            "CREATE INDEX contact_event_contact ON contact_event (contact_id, event_ts)",
            "CREATE INDEX contact_event_ts ON contact_event (event_ts)",
        ] + replacedVersionTrigger + writtenTriggers + agentLatestEvent + ["SELECT raw_partitions_ensure()"]
    )

    /// The statement triggers that stash the rows the ingest's upsert writes, for
    /// `rollup_apply_written()`: one per event (a trigger with transition tables has one).
    static let writtenTriggers = [
        """
        CREATE TRIGGER contact_record_rollup_inserted
        AFTER INSERT ON contact_record
        REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_written()
        """,
        """
        CREATE TRIGGER contact_record_rollup_updated
        AFTER UPDATE ON contact_record
        REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION contact_record_stash_written()
        """,
        """
        COMMENT ON TRIGGER contact_record_rollup_inserted ON contact_record IS
        'Keeps the rows the ingest writes (in its sessions only), for rollup_apply_written to add their contributions to the rollups without reading them back.'
        """,
    ]
}

extension SwitchboardSchema {
    /// Each agent's latest event, so `agent_status_interval` (and `agent_interval_metrics`) find
    /// the agents' open segments without reading `agent_event`.
    ///
    /// The view took off the part after now() of each agent's last segment by reading the events
    /// of the last 10 minutes that have no later event of their agent: `agent_event` twice. On
    /// monthly partitions the planner opens every month of it, twice, before pruning at run time,
    /// so a one-day panel cost a fresh session 155 ms instead of 46 (`make bench-analyst`, 16
    /// months). `agent_latest_event` holds one row per agent, kept in the ingest's transaction
    /// (`agent_latest_apply`, only forward: greatest `event_ts`, then `event_id`), refilled by
    /// `switchboard rollup rebuild` (`agent_latest_rebuild`).
    static let agentLatestEvent = [
        """
        CREATE TABLE agent_latest_event (
            agent_arn text PRIMARY KEY,
            event_id text NOT NULL,
            event_ts timestamptz NOT NULL,
            event_type text NOT NULL,
            contact_state text,
            status_type text,
            status_name text,
            activity text NOT NULL
        )
        """,
        """
        COMMENT ON TABLE agent_latest_event IS
        'Each agent''s latest event (greatest event_ts, then event_id), whose segment the agent views end at now(). Kept by the ingest in its transaction; switchboard rollup rebuild refills it.'
        """,
        """
        CREATE FUNCTION agent_latest_rebuild() RETURNS void LANGUAGE sql AS $$
            DELETE FROM agent_latest_event;
            INSERT INTO agent_latest_event
            SELECT DISTINCT ON (agent_arn) agent_arn, event_id, event_ts, event_type, contact_state, status_type,
                   status_name, activity
            FROM agent_event
            ORDER BY agent_arn, event_ts DESC, event_id DESC;
        $$
        """,
        "SELECT agent_latest_rebuild()",
        """
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
        $$
        """,
        """
        COMMENT ON FUNCTION agent_latest_apply(text[], timestamptz[]) IS
        'Moves each agent''s latest event forward to its events at p_last (the latest time of the events the ingest just inserted for it). Called by the ingest writer with rollup_apply_agents.'
        """,
        agentStatusIntervalFromLatest,
    ]

    /// Migration 7's `rollup_ensure_stash()`, also creating the stash of written rows (of the
    /// same columns) that the triggers of ``writtenTriggers`` fill.
    static let ensureStashes = replacing(
        in: ensureReplacedStash,
        [
            ("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"),
            (
                "    END IF;\nEND\n",
                """
                    END IF;
                    IF to_regclass('pg_temp.rollup_written_contact') IS NULL THEN
                        CREATE TEMP TABLE rollup_written_contact (LIKE pg_temp.rollup_replaced_contact) ON COMMIT DELETE ROWS;
                    END IF;
                END

                """
            ),
        ])

    /// Migration 6's `agent_status_interval` over the rollup (``rollupViews``), its open segments
    /// taken from `agent_latest_event`, which holds only each agent's latest event (so the test
    /// for a later event goes): the same rows (`switchboard rollup check` compares).
    static let agentStatusIntervalFromLatest = replacing(
        in: rollupViews.first { $0.hasPrefix("CREATE VIEW agent_status_interval AS") } ?? "",
        [
            ("CREATE VIEW", "CREATE OR REPLACE VIEW"),
            ("    FROM agent_event e\n", "    FROM agent_latest_event e\n"),
            (
                """

                      AND NOT EXISTS (
                          SELECT 1 FROM agent_event n
                          WHERE n.agent_arn = e.agent_arn AND n.event_ts >= e.event_ts
                            AND (n.event_ts, n.event_id) > (e.event_ts, e.event_id))
                """,
                ""
            ),
        ])
}
