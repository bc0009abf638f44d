CREATE OR REPLACE FUNCTION rollup_ensure_stash() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('pg_temp.rollup_replaced_contact') IS NULL THEN
        CREATE TEMP TABLE rollup_replaced_contact (
            contact_id text, initial_contact_id text, next_contact_id text,
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
