extension SwitchboardSchema {
    /// The analyst views of ``connectMetrics`` read from the rollups: same columns, same values.
    ///
    /// `agent_status_interval` adds to the rollup the correction for each agent's open segment:
    /// the rollup counts an agent's last event as lasting 10 minutes, the definition until now()
    /// when that is sooner, so the part after now() of segments that started in the last
    /// 10 minutes and have no next event yet is taken off (live, from the recent events only).
    /// `agent_interval_metrics` reads `agent_interval_rollup` for intervals that ended over
    /// 15 minutes ago (no open segment reaches them) and `agent_status_interval` for the rest.
    static let rollupViews = [
        "DROP VIEW agent_interval_metrics, agent_status_interval, store_day_metrics, queue_interval_metrics",
        """
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
               agent_connection_attempts
        FROM queue_interval_rollup
        WHERE queued > 0
        """,
        """
        COMMENT ON VIEW queue_interval_metrics IS
        'Queued contacts per queue and 15-minute interval of enqueue_ts (README, SQL for analysts), from queue_interval_rollup.'
        """,
        """
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
        WHERE contact_records > 0
        """,
        """
        COMMENT ON VIEW store_day_metrics IS
        'Contacts per store, business day and day type (README, SQL for analysts), from store_day_rollup.'
        """,
        """
        CREATE VIEW agent_status_interval AS
        SELECT agent_arn, max(username) AS username, interval_start, activity, status_name, status_type,
               round(sum(seconds), 3) AS seconds
        FROM (
            SELECT agent_arn, username, interval_start, activity, status_name, status_type, seconds
            FROM agent_status_rollup
            UNION ALL
            SELECT e.agent_arn, NULL, i.interval_start,
                   agent_event_activity(e.event_type, e.contact_state, e.status_type),
                   coalesce(e.status_name, e.status_type, e.activity), e.status_type,
                   -extract(epoch FROM least(e.event_ts + interval '10 minutes', i.interval_start + interval '15 minutes')
                                     - greatest(c.cut, i.interval_start))
            FROM agent_event e
            CROSS JOIN LATERAL (SELECT greatest(e.event_ts, now()) AS cut) AS c
            CROSS JOIN LATERAL generate_series(
                rollup_interval(c.cut), e.event_ts + interval '10 minutes' - interval '1 microsecond',
                interval '15 minutes'
            ) AS i(interval_start)
            WHERE e.event_ts > now() - interval '10 minutes'
              AND NOT EXISTS (
                  SELECT 1 FROM agent_event n
                  WHERE n.agent_arn = e.agent_arn AND n.event_ts >= e.event_ts
                    AND (n.event_ts, n.event_id) > (e.event_ts, e.event_id))
        ) AS u
        GROUP BY agent_arn, interval_start, activity, status_name, status_type
        HAVING sum(seconds) > 0
        """,
        """
        COMMENT ON VIEW agent_status_interval IS
        'Seconds per agent, 15-minute interval, activity and status. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s), and at most until now(). From agent_status_rollup.'
        """,
        """
        CREATE VIEW agent_interval_metrics AS
        WITH totals AS (
            SELECT agent_arn, username, interval_start, available_s, connecting_s, on_contact_s, after_contact_work_s,
                   error_s, custom_status_s, offline_s, agent_on_contact_s, agent_idle_s
            FROM agent_interval_rollup
            WHERE interval_start <= now() - interval '15 minutes'
            UNION ALL
            SELECT agent_arn,
                   max(username),
                   interval_start,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'available'), 0),
                   coalesce(sum(seconds) FILTER (WHERE activity = 'connecting'), 0),
                   coalesce(sum(seconds) FILTER (WHERE activity = 'onContact'), 0),
                   coalesce(sum(seconds) FILTER (WHERE activity = 'afterContactWork'), 0),
                   coalesce(sum(seconds) FILTER (WHERE activity = 'error'), 0),
                   coalesce(sum(seconds) FILTER (WHERE activity = 'customStatus'), 0),
                   coalesce(sum(seconds) FILTER (WHERE activity = 'offline'), 0),
                   coalesce(sum(seconds) FILTER (
                       WHERE activity IN ('onContact', 'afterContactWork') AND status_type = 'ROUTABLE'), 0),
                   coalesce(sum(seconds) FILTER (
                       WHERE activity IN ('available', 'error') AND status_type = 'ROUTABLE'), 0)
            FROM agent_status_interval
            WHERE interval_start > now() - interval '15 minutes'
            GROUP BY agent_arn, interval_start
        )
        SELECT agent_arn, username, interval_start, interval_start + interval '15 minutes' AS interval_end,
               available_s, connecting_s, on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s,
               agent_on_contact_s, agent_idle_s,
               round(agent_on_contact_s / nullif(agent_on_contact_s + agent_idle_s, 0), 4) AS occupancy
        FROM totals
        """,
        """
        COMMENT ON VIEW agent_interval_metrics IS
        'Seconds per agent and 15-minute interval by activity, and Connect''s occupancy (README, SQL for analysts), from agent_interval_rollup (intervals that ended over 15 minutes ago) and agent_status_interval.'
        """,
    ]
}
