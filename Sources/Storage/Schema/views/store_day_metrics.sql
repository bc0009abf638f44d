CREATE VIEW store_day_metrics AS
SELECT store_id, business_date, day_type,
       contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested,
       contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled,
       transferred_out, transferred_out_external,
       round(removed_within_threshold::numeric / nullif(queued, 0), 4) AS connect_service_level,
       round(answered_within_threshold::numeric / nullif(queued, 0), 4) AS answered_service_level,
       round(answered_queue_s::numeric / nullif(answered_queue_s_n, 0), 2) AS average_speed_of_answer_s,
       round(handled_handle_s::numeric / nullif(handled_handle_s_n, 0), 2) AS average_handle_time_s,
       round(handled_acw_s::numeric / nullif(handled_acw_s_n, 0), 2) AS average_after_contact_work_s,
       round(abandoned::numeric / nullif(queued, 0), 4) AS abandonment_rate,
       agent_connection_attempts
FROM store_day_rollup
WHERE contact_records > 0;

COMMENT ON VIEW store_day_metrics IS
'Contacts per store, business day and day type (docs/analysts.md), from store_day_rollup.';
