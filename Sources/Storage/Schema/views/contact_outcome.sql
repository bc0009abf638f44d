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
           -- The next leg's initiation method, looked up only for the few records that have one:
           -- a join would probe every partition's key for every record.
           CASE WHEN r.next_contact_id IS NOT NULL THEN (
               SELECT n.initiation_method FROM contact_record n WHERE n.contact_id = r.next_contact_id LIMIT 1)
           END AS next_initiation_method,
           r.enqueue_ts IS NOT NULL AND coalesce(r.queue_arn, r.queue_name) IS NOT NULL AS queued,
           r.connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN r.enqueue_ts IS NOT NULL THEN coalesce(
               r.queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(r.dequeue_ts, r.connected_to_agent_ts, r.disconnect_ts) - r.enqueue_ts)))::integer)
           END AS queue_s
    FROM contact_record r
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false) AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
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
       mask_phone(transferred_to_endpoint) AS transferred_to_endpoint,
       customer_hold_s,
       agent_interaction_s,
       greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
           AS agent_non_response
FROM classified;

COMMENT ON VIEW contact_outcome IS
'One row per contact record, classified by Amazon Connect''s definitions (docs/analysts.md): queued, handled (connected to an agent), answered (queued and handled), abandoned (customer disconnected in queue; callbacks and transfers excluded), callback_requested, transfers out, within-threshold flags (analytics_threshold_seconds()), hold and interaction seconds, agent_non_response (offers to an agent not answered).';
