-- What each of Switchboard's roles may do in the schema: applied by every `switchboard migrate`
-- after the versioned migrations, in one transaction under the migration lock.
--
-- This file is the whole truth: each group role's privileges on the schema and its objects are
-- revoked and granted again from the list below, so a privilege removed here leaves the database
-- at the next migrate, and a role an administrator creates later gets its privileges then. The
-- owner (the role that runs migrate) keeps everything; PUBLIC executes nothing, whichever role
-- created a function, and the migrating role's default privileges keep it so.
-- The privilege audit test (StorageTests/PrivilegeAuditTests) compares what the catalogs then
-- allow each role with the allow-list in docs/analysts.md, "Roles and privileges".

-- The group roles, NOLOGIN: login users are the operator's (deploy/docs/database-roles.md).
-- Creating them needs CREATEROLE; without it, migrate names the missing ones.
DO $$
DECLARE
    v_role text;
BEGIN
    FOREACH v_role IN ARRAY ARRAY['switchboard_writer', 'switchboard_retention', 'switchboard_analyst', 'switchboard_staffing_reader'] LOOP
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = v_role) THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN', v_role);
            EXCEPTION
                WHEN insufficient_privilege THEN
                    RAISE WARNING 'cannot create role % (%); ask an administrator to create it', v_role, SQLERRM;
                -- Roles are cluster-wide: another database's migrate may have created it just now.
                WHEN duplicate_object OR unique_violation THEN
                    NULL;
            END;
        END IF;
    END LOOP;
END
$$;

-- PostgreSQL lets PUBLIC execute every new function, and default privileges belong to the role
-- that set them: each migrating role (a superuser once, switchboard_owner later) revokes it for
-- what it creates from now on, and every function there is, by anyone, loses it again here.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;

DO $$
DECLARE
    v_role text;
BEGIN
    FOREACH v_role IN ARRAY ARRAY['switchboard_writer', 'switchboard_retention', 'switchboard_analyst', 'switchboard_staffing_reader'] LOOP
        CONTINUE WHEN NOT EXISTS (SELECT FROM pg_roles WHERE rolname = v_role);
        EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', v_role);
        EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM %I', v_role);
        EXECUTE format('REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM %I', v_role);
        EXECUTE format('REVOKE ALL ON SCHEMA public FROM %I', v_role);
        EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', v_role);
    END LOOP;
END
$$;

DO $$
DECLARE
    g record;
BEGIN
    FOR g IN
        SELECT * FROM (VALUES
            -- The writer: `ingest`, `import`, `dlq replay`, `rollup rebuild`/`check`, `staffing plan`
            -- and `seed`, and the reference data every start writes (stores, business days, the
            -- calendar, the analysts' settings). Raw rows are inserted and upserted, never deleted
            -- (retention drops whole partitions); events are only inserted.
            ('switchboard_writer', 'SELECT', 'TABLE schema_migration, schema_object'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE, DELETE', 'TABLE consumer_offset'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE', 'TABLE contact_record'),
            ('switchboard_writer', 'SELECT, INSERT', 'TABLE agent_event, contact_event'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE', 'TABLE dead_letter'),
            ('switchboard_writer', 'USAGE', 'SEQUENCE dead_letter_id_seq'),
            ('switchboard_writer', 'SELECT', 'TABLE raw_retention'),
            -- The staffing history reads contact_outcome; `rollup check` compares the views with
            -- their definitions.
            ('switchboard_writer', 'SELECT',
             'TABLE contact_outcome, queue_interval_metrics, store_day_metrics, agent_contact_interval_metrics, '
             'agent_interval_metrics, agent_status_interval, agent_activity_segment'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE, DELETE',
             'TABLE queue_interval_rollup, store_day_rollup, agent_status_rollup, agent_interval_rollup, '
             'agent_latest_event, rollup_business_day_snapshot'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE', 'TABLE rollup_state'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE, DELETE', 'TABLE store, store_business_day, calendar_day'),
            ('switchboard_writer', 'SELECT, UPDATE', 'TABLE analytics_setting'),
            ('switchboard_writer', 'SELECT, INSERT, UPDATE, DELETE',
             'TABLE staffing_source, staffing_history, staffing_history_day, staffing_refresh'),
            ('switchboard_writer', 'SELECT, INSERT', 'TABLE staffing_plan, staffing_plan_interval'),
            ('switchboard_writer', 'USAGE', 'SEQUENCE staffing_plan_plan_id_seq'),
            ('switchboard_writer', 'EXECUTE',
             'FUNCTION ingest_write_begin(), rollup_ensure_stash(), rollup_apply_written(), rollup_lock(), '
             'raw_partitions_ensure(timestamptz[], integer), raw_partitioned_tables(), raw_horizon(), '
             'rollup_interval(timestamptz), agent_event_activity(text, text, text), rollup_instant(text), '
             'agent_latest_apply(text[], timestamptz[]), agent_latest_rebuild(), '
             'rollup_apply_agents(text[], timestamptz[], timestamptz[]), '
             'rollup_insert_agents(text[], timestamptz[], timestamptz[]), '
             'rollup_insert_agents_by_key(text[], timestamptz[], timestamptz[]), '
             'rollup_rebuild(timestamptz, timestamptz), rollup_rebuild_contacts(timestamptz, timestamptz), '
             'rollup_definitions_fingerprint(), rollup_record_definitions(), rollup_sync_definitions(), '
             'queue_interval_metrics_from_raw(), store_day_metrics_from_raw(), agent_status_interval_from_raw(), '
             'agent_interval_metrics_from_raw(), analytics_threshold_seconds(), analytics_time_zone(), '
             'day_type(date), store_business_day_at(text, timestamptz), staffing_day_types(date, date), '
             'staffing_history_refresh(date, date), staffing_intraday_actuals(date, timestamptz, text), '
             'mask_phone(text), phone_text(text), looks_like_phone(text), analyst_attribute_keys(), '
             'analyst_attributes(jsonb)'),

            -- Retention: it drops old raw partitions through raw_retention_apply (SECURITY DEFINER,
            -- run as the owner) and reads the horizon; nothing else.
            ('switchboard_retention', 'SELECT', 'TABLE schema_migration, schema_object, raw_retention'),
            ('switchboard_retention', 'EXECUTE', 'FUNCTION raw_retention_apply(integer, boolean)'),

            -- The staffing reader: `serve`'s `GET /v1/staffing` and MCP tools. It reads the history
            -- as the last refresh (`staffing plan`, `dev`) left it, the stores' day types and the
            -- stored plans, and today's contacts through contact_outcome (a view: it reads the raw
            -- table with its owner's rights, but the functions it calls with the reader's:
            -- analytics_threshold_seconds, mask_phone), as staffing_intraday_actuals sums them; it
            -- writes nothing, never runs the refresh.
            ('switchboard_staffing_reader', 'SELECT', 'TABLE schema_migration, schema_object'),
            ('switchboard_staffing_reader', 'SELECT',
             'TABLE staffing_history_day, staffing_history, staffing_source, staffing_refresh, staffing_plan, '
             'staffing_plan_interval, store, store_business_day, calendar_day, analytics_setting, contact_outcome'),
            ('switchboard_staffing_reader', 'EXECUTE',
             'FUNCTION analytics_time_zone(), analytics_threshold_seconds(), day_type(date), '
             'store_business_day_at(text, timestamptz), staffing_day_types(date, date), '
             'staffing_intraday_actuals(date, timestamptz, text), mask_phone(text)'),

            -- The analyst: the documented views, the rollups behind them and the reference tables;
            -- the functions the views call and those docs/analysts.md offers. Never a raw table.
            ('switchboard_analyst', 'SELECT',
             'TABLE contact_record_analyst, contact_outcome, queue_interval_metrics, store_day_metrics, '
             'agent_contact_interval_metrics, agent_interval_metrics, agent_status_interval, agent_activity_segment'),
            ('switchboard_analyst', 'SELECT',
             'TABLE queue_interval_rollup, store_day_rollup, agent_status_rollup, agent_interval_rollup'),
            ('switchboard_analyst', 'SELECT', 'TABLE calendar_day, analytics_setting, store, store_business_day'),
            ('switchboard_analyst', 'SELECT',
             'TABLE staffing_history, staffing_history_day, staffing_source, staffing_refresh, staffing_plan, '
             'staffing_plan_interval'),
            ('switchboard_analyst', 'EXECUTE',
             'FUNCTION rollup_interval(timestamptz), agent_event_activity(text, text, text), '
             'analytics_threshold_seconds(), analytics_time_zone(), mask_phone(text), phone_text(text), '
             'looks_like_phone(text), analyst_attribute_keys(), analyst_attributes(jsonb), day_type(date), '
             'store_business_day_at(text, timestamptz), staffing_day_types(date, date)')
        ) AS grants (grantee, privileges, objects)
    LOOP
        IF EXISTS (SELECT FROM pg_roles WHERE rolname = g.grantee) THEN
            EXECUTE format('GRANT %s ON %s TO %I', g.privileges, g.objects, g.grantee);
        END IF;
    END LOOP;
END
$$;
