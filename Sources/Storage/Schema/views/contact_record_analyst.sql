CREATE VIEW contact_record_analyst AS
SELECT contact_id, initial_contact_id, previous_contact_id, next_contact_id, channel, initiation_method,
       initiation_ts, connected_to_system_ts, disconnect_ts, disconnect_reason, queue_name, queue_arn,
       enqueue_ts, dequeue_ts, queue_duration_s, agent_username, agent_arn, connected_to_agent_ts,
       agent_interaction_s, customer_hold_s, acw_start_ts, acw_end_ts, acw_s, number_of_holds,
       longest_hold_s, routing_profile, dialed_number, mask_phone(customer_number) AS customer_number,
       store_id, analyst_attributes(attributes) AS attributes, last_update_ts, versions_seen,
       agent_connection_attempts, transfer_completed_ts,
       mask_phone(transferred_to_endpoint) AS transferred_to_endpoint,
       agent_hierarchy_level1, agent_hierarchy_level2, agent_hierarchy_level3, agent_hierarchy_level4,
       agent_hierarchy_level5
FROM contact_record;
