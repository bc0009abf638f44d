extension SwitchboardSchema {
    /// The contact views of ``connectMetrics``: per contact (`contact_outcome`), per queue and
    /// interval, per store and business day, per agent and interval.
    ///
    /// Every count follows from one classification in `contact_outcome`, so the views cannot
    /// disagree with each other.
    static let contactMetricViews = [
        """
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
        FROM contact_record
        """,
        """
        CREATE VIEW contact_outcome AS
        WITH base AS (
            SELECT r.contact_id, r.initial_contact_id, r.previous_contact_id, r.next_contact_id, r.channel,
                   r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id,
                   coalesce(r.queue_arn, r.queue_name) AS queue, r.queue_name, r.enqueue_ts,
                   r.connected_to_agent_ts, r.agent_arn, r.agent_username, r.routing_profile,
                   r.agent_hierarchy_level1, r.agent_hierarchy_level2, r.agent_hierarchy_level3,
                   r.agent_hierarchy_level4, r.agent_hierarchy_level5,
                   r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts,
                   r.transfer_completed_ts, r.transferred_to_endpoint,
                   n.initiation_method AS next_initiation_method,
                   r.enqueue_ts IS NOT NULL AND coalesce(r.queue_arn, r.queue_name) IS NOT NULL AS queued,
                   r.connected_to_agent_ts IS NOT NULL AS handled,
                   CASE WHEN r.enqueue_ts IS NOT NULL THEN coalesce(
                       r.queue_duration_s,
                       greatest(0, floor(extract(epoch FROM
                           coalesce(r.dequeue_ts, r.connected_to_agent_ts, r.disconnect_ts) - r.enqueue_ts)))::integer)
                   END AS queue_s
            FROM contact_record r
            LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        ), classified AS (
            SELECT base.*,
                   queued AND handled AS answered,
                   queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
                       AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
                   queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false) AS callback_requested,
                   coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
                   handled AND coalesce(next_initiation_method = 'TRANSFER', false) AS transferred_out_by_agent,
                   transfer_completed_ts IS NOT NULL AS transferred_out_external
            FROM base
        )
        SELECT contact_id,
               coalesce(initial_contact_id, contact_id) AS initial_contact_id,
               initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
               previous_contact_id, next_contact_id, channel, initiation_method, initiation_ts, disconnect_ts,
               disconnect_reason, store_id, queue, queue_name, enqueue_ts,
               to_timestamp(floor(extract(epoch FROM enqueue_ts) / 900) * 900) AS interval_start,
               queue_s, connected_to_agent_ts, agent_arn, agent_username, routing_profile,
               agent_hierarchy_level1, agent_hierarchy_level2, agent_hierarchy_level3, agent_hierarchy_level4,
               agent_hierarchy_level5,
               queued, handled, answered, abandoned, callback_requested,
               transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
               transferred_out_queue, transferred_out_by_agent, transferred_out_external,
               answered AND queue_s <= analytics_threshold_seconds() AS answered_within_threshold,
               abandoned AND queue_s <= analytics_threshold_seconds() AS abandoned_within_threshold,
               (answered OR abandoned OR callback_requested) AND queue_s <= analytics_threshold_seconds()
                   AS removed_within_threshold,
               CASE WHEN handled THEN coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
               END AS handle_s,
               acw_s, agent_connection_attempts, transfer_completed_ts,
               mask_phone(transferred_to_endpoint) AS transferred_to_endpoint
        FROM classified
        """,
        """
        COMMENT ON VIEW contact_outcome IS
        'One row per contact record, classified by Amazon Connect''s definitions (README, SQL for analysts): queued, handled (connected to an agent), answered (queued and handled), abandoned (customer disconnected in queue; callbacks and transfers excluded), callback_requested, transfers out, within-threshold flags (analytics_threshold_seconds()).'
        """,
        """
        CREATE VIEW queue_interval_metrics AS
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
               coalesce(sum(agent_connection_attempts), 0) AS agent_connection_attempts
        FROM contact_outcome
        WHERE queued
        GROUP BY queue, interval_start
        """,
        """
        CREATE VIEW store_day_metrics AS
        SELECT coalesce(o.store_id, '(unknown)') AS store_id,
               b.business_date,
               b.day_type,
               count(*) FILTER (WHERE o.first_contact) AS contacts,
               count(*) AS contact_records,
               count(*) FILTER (WHERE o.first_contact AND NOT o.queued AND NOT o.handled AND o.next_contact_id IS NULL)
                   AS ended_in_flow,
               count(*) FILTER (WHERE o.queued) AS queued,
               count(*) FILTER (WHERE o.answered) AS answered,
               count(*) FILTER (WHERE o.abandoned) AS abandoned,
               count(*) FILTER (WHERE o.callback_requested) AS callbacks_requested,
               count(*) FILTER (WHERE o.handled) AS contacts_handled,
               count(*) FILTER (WHERE o.handled AND o.initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER'))
                   AS contacts_handled_incoming,
               count(*) FILTER (WHERE o.handled AND o.initiation_method = 'OUTBOUND') AS contacts_handled_outbound,
               count(*) FILTER (WHERE o.handled AND o.initiation_method = 'CALLBACK') AS callback_contacts_handled,
               count(*) FILTER (WHERE o.transferred_out) AS transferred_out,
               count(*) FILTER (WHERE o.transferred_out_external) AS transferred_out_external,
               round(count(*) FILTER (WHERE o.removed_within_threshold)::numeric
                     / nullif(count(*) FILTER (WHERE o.queued), 0), 4) AS connect_service_level,
               round(count(*) FILTER (WHERE o.answered_within_threshold)::numeric
                     / nullif(count(*) FILTER (WHERE o.queued), 0), 4) AS answered_service_level,
               round(avg(o.queue_s) FILTER (WHERE o.answered), 2) AS average_speed_of_answer_s,
               round(avg(o.handle_s) FILTER (WHERE o.handled), 2) AS average_handle_time_s,
               round(avg(o.acw_s) FILTER (WHERE o.handled), 2) AS average_after_contact_work_s,
               round(count(*) FILTER (WHERE o.abandoned)::numeric / nullif(count(*) FILTER (WHERE o.queued), 0), 4)
                   AS abandonment_rate,
               coalesce(sum(o.agent_connection_attempts), 0) AS agent_connection_attempts
        FROM contact_outcome o
        CROSS JOIN LATERAL store_business_day_at(o.store_id, o.initiation_ts) AS b
        WHERE o.initiation_ts IS NOT NULL
        GROUP BY coalesce(o.store_id, '(unknown)'), b.business_date, b.day_type
        """,
        """
        CREATE VIEW agent_contact_interval_metrics AS
        SELECT agent_arn,
               agent_username AS username,
               to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900) AS interval_start,
               to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900) + interval '15 minutes'
                   AS interval_end,
               max(agent_hierarchy_level1) AS agent_hierarchy_level1,
               max(agent_hierarchy_level2) AS agent_hierarchy_level2,
               max(agent_hierarchy_level3) AS agent_hierarchy_level3,
               max(agent_hierarchy_level4) AS agent_hierarchy_level4,
               max(agent_hierarchy_level5) AS agent_hierarchy_level5,
               count(*) AS contacts_handled,
               count(*) FILTER (WHERE initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER'))
                   AS contacts_handled_incoming,
               count(*) FILTER (WHERE initiation_method = 'OUTBOUND') AS contacts_handled_outbound,
               count(*) FILTER (WHERE initiation_method = 'CALLBACK') AS callback_contacts_handled,
               count(*) FILTER (WHERE transferred_out) AS transferred_out,
               count(*) FILTER (WHERE transferred_out_external) AS transferred_out_external,
               round(avg(handle_s), 2) AS average_handle_time_s,
               round(avg(acw_s), 2) AS average_after_contact_work_s
        FROM contact_outcome
        WHERE handled
        GROUP BY agent_arn, agent_username, to_timestamp(floor(extract(epoch FROM connected_to_agent_ts) / 900) * 900)
        """,
    ]
}
