CREATE OR REPLACE FUNCTION store_day_metrics_from_raw() RETURNS SETOF store_day_metrics LANGUAGE sql STABLE AS $$
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
$$;

COMMENT ON FUNCTION store_day_metrics_from_raw() IS
'store_day_metrics computed from the raw tables, as the view read them before the rollups served it: what `switchboard rollup check` compares the view with.';
