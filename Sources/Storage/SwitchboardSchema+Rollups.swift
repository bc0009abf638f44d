extension SwitchboardSchema {
    /// Rollup tables at the analyst views' grains, kept in the ingest's transaction, and the views
    /// rebuilt on them (same columns, same meaning).
    ///
    /// - `queue_interval_rollup`: queue × 15-minute interval of `enqueue_ts`;
    /// - `store_day_rollup`: store × business day × day type (``businessDays``);
    /// - `agent_status_rollup`: agent × interval × activity × status (seconds), and
    ///   `agent_interval_rollup`: agent × interval, the activities as columns.
    ///
    /// Every rollup row holds numerators and denominators (counts, sums, the number of summed
    /// values), never ratios, so any range sums exactly. The writer keeps them with the rows they
    /// summarize (``rollupMaintenance``); `switchboard rollup rebuild` recomputes them from the raw
    /// tables (``rollupRebuild``).
    static let rollups = Migration(
        version: 7,
        name: "analyst rollups",
        statements: rollupTables + rollupIndexes + rollupMaintenance + rollupRebuild + rollupViews + analystGrants
            + rollupGrants + ["SELECT rollup_rebuild(NULL, NULL)"]
    )

    /// The rollup tables and the state of their definitions.
    static let rollupTables = [
        """
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
        )
        """,
        """
        COMMENT ON TABLE queue_interval_rollup IS
        'contact_outcome of queued contacts summed per queue and 15-minute interval of enqueue_ts: counts, sums of seconds (*_s) and how many values each sum has (*_s_n). queue_interval_metrics reads it. Kept by the ingest in the transaction of the rows; switchboard rollup rebuild recomputes it.'
        """,
        """
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
        )
        """,
        """
        COMMENT ON TABLE store_day_rollup IS
        'contact_outcome summed per store, business day and day type (store_business_day_at of initiation_ts). store_day_metrics reads it. Rebuilt automatically when the stores, business days, holidays or analytics settings change.'
        """,
        """
        CREATE TABLE agent_status_rollup (
            agent_arn text NOT NULL,
            interval_start timestamptz NOT NULL,
            activity text NOT NULL,
            status_name text NOT NULL,
            status_type text,
            username text,
            seconds numeric NOT NULL
        )
        """,
        """
        COMMENT ON TABLE agent_status_rollup IS
        'Seconds per agent, 15-minute interval, activity and status, unrounded. An agent''s last segment is counted as if it lasted its full 10 minutes; agent_status_interval takes off the part after now().'
        """,
        """
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
        )
        """,
        """
        COMMENT ON TABLE agent_interval_rollup IS
        'agent_status_rollup per agent and interval, each status''s seconds rounded to milliseconds first (as agent_interval_metrics sums them). agent_interval_metrics reads it for intervals that ended over 15 minutes ago.'
        """,
        """
        CREATE TABLE rollup_state (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            definitions_fingerprint text
        )
        """,
        "INSERT INTO rollup_state DEFAULT VALUES",
        """
        COMMENT ON TABLE rollup_state IS
        'The fingerprint of the settings, store time zones and holidays the contact rollups were computed with; rollup_sync_definitions() rebuilds them when it changes.'
        """,
        """
        CREATE TABLE rollup_business_day_snapshot (
            store_id text NOT NULL,
            business_date date NOT NULL,
            day_type text NOT NULL,
            closes_at timestamptz,
            PRIMARY KEY (store_id, business_date)
        )
        """,
        """
        COMMENT ON TABLE rollup_business_day_snapshot IS
        'The store_business_day rows store_day_rollup was computed with; rollup_sync_definitions() recomputes the store days around the rows that differ.'
        """,
    ]

    /// Indexes for the rollups' upkeep and the analysts' filters (time range, store, queue, agent).
    static let rollupIndexes = [
        // The contacts whose next contact is a given one (their transfer/callback classification).
        "CREATE INDEX contact_record_next ON contact_record (next_contact_id) WHERE next_contact_id IS NOT NULL",
        // The agents' recent events (open segments) and time-range filters.
        "CREATE INDEX agent_event_ts ON agent_event (event_ts)",
        "CREATE INDEX contact_event_ts ON contact_event (event_ts)",
        "CREATE INDEX queue_interval_rollup_interval ON queue_interval_rollup (interval_start)",
        "CREATE INDEX queue_interval_rollup_stale ON queue_interval_rollup (queue, interval_start) WHERE max_stale",
        "CREATE INDEX store_day_rollup_date ON store_day_rollup (business_date)",
        "CREATE INDEX agent_status_rollup_agent ON agent_status_rollup (agent_arn, interval_start)",
        "CREATE INDEX agent_status_rollup_interval ON agent_status_rollup (interval_start)",
        "CREATE INDEX agent_interval_rollup_interval ON agent_interval_rollup (interval_start)",
    ]

    /// What the analyst role may read besides the views.
    static let rollupGrants = [
        """
        DO $$
        BEGIN
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
                EXECUTE 'GRANT SELECT ON queue_interval_rollup, store_day_rollup, agent_status_rollup,
                         agent_interval_rollup TO switchboard_analyst';
            END IF;
        END
        $$
        """
    ]
}
