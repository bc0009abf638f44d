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
       agent_connection_attempts,
       answered AS contacts_handled,
       transferred_out_by_agent,
       round(answered_hold_s::numeric / nullif(answered_held, 0), 2) AS average_customer_hold_time_s,
       round(answered_hold_s::numeric / nullif(answered, 0), 2) AS average_customer_hold_time_all_contacts_s,
       round(answered_interaction_s::numeric / nullif(answered_interaction_s_n, 0), 2) AS average_interaction_time_s,
       agent_non_response
FROM queue_interval_rollup
WHERE queued > 0;

COMMENT ON VIEW queue_interval_metrics IS
'Queued contacts per queue and 15-minute interval of enqueue_ts (docs/analysts.md), from queue_interval_rollup.';
