CREATE OR REPLACE FUNCTION queue_interval_metrics_from_raw() RETURNS SETOF queue_interval_metrics LANGUAGE sql STABLE AS $$
    SELECT queue,
           max(queue_name) AS queue_name,
           interval_start,
           interval_start + interval '15 minutes' AS interval_end,
           count(*) AS queued,
           count(*) FILTER (WHERE answered) AS answered,
           count(*) FILTER (WHERE abandoned) AS abandoned,
           count(*) FILTER (WHERE callback_requested) AS callbacks_requested,
           count(*) FILTER (WHERE transferred_out) AS transferred_out,
           count(*) FILTER (WHERE transferred_out_queue) AS transferred_out_queue,
           count(*) FILTER (WHERE transferred_out_external) AS transferred_out_external,
           count(*) FILTER (WHERE answered_within_threshold) AS answered_within_threshold,
           count(*) FILTER (WHERE abandoned_within_threshold) AS abandoned_within_threshold,
           count(*) FILTER (WHERE removed_within_threshold) AS removed_within_threshold,
           round(count(*) FILTER (WHERE removed_within_threshold)::numeric / count(*), 4) AS connect_service_level,
           round(count(*) FILTER (WHERE answered_within_threshold)::numeric / count(*), 4) AS answered_service_level,
           round(avg(queue_s) FILTER (WHERE answered), 2) AS average_speed_of_answer_s,
           round(avg(queue_s) FILTER (WHERE abandoned), 2) AS average_queue_abandon_time_s,
           round(avg(handle_s) FILTER (WHERE answered), 2) AS average_handle_time_s,
           round(avg(acw_s) FILTER (WHERE answered), 2) AS average_after_contact_work_s,
           round(count(*) FILTER (WHERE abandoned)::numeric / count(*), 4) AS abandonment_rate,
           max(queue_s) AS max_queued_s,
           coalesce(sum(agent_connection_attempts), 0) AS agent_connection_attempts,
           count(*) FILTER (WHERE handled) AS contacts_handled,
           count(*) FILTER (WHERE transferred_out_by_agent) AS transferred_out_by_agent,
           round(avg(customer_hold_s) FILTER (WHERE answered AND customer_hold_s > 0), 2)
               AS average_customer_hold_time_s,
           round(avg(coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 2)
               AS average_customer_hold_time_all_contacts_s,
           round(avg(agent_interaction_s) FILTER (WHERE answered), 2) AS average_interaction_time_s,
           coalesce(sum(agent_non_response), 0) AS agent_non_response
    FROM contact_outcome
    WHERE queued
    GROUP BY queue, interval_start
$$;

COMMENT ON FUNCTION queue_interval_metrics_from_raw() IS
'queue_interval_metrics computed from the raw contact records (contact_outcome) instead of the rollup: what switchboard rollup check compares the view with. Reads the whole history.';
