CREATE OR REPLACE FUNCTION contact_record_stash_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM rollup_ensure_stash();
    -- The first replaced version of a contact in a transaction is the committed one.
    INSERT INTO pg_temp.rollup_replaced_contact
    SELECT contact_id, initial_contact_id, next_contact_id, initiation_method, initiation_ts, disconnect_ts, disconnect_reason, store_id, queue_arn, queue_name, enqueue_ts, dequeue_ts, queue_duration_s, connected_to_agent_ts, agent_interaction_s, customer_hold_s, acw_s, agent_connection_attempts, transfer_completed_ts FROM replaced r
    WHERE NOT EXISTS (SELECT 1 FROM pg_temp.rollup_replaced_contact p WHERE p.contact_id = r.contact_id);
    RETURN NULL;
END
$$;
