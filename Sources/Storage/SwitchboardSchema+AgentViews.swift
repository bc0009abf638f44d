extension SwitchboardSchema {
    /// The agent views of ``connectMetrics``: activity segments from agent events, seconds per
    /// interval and status, and Connect's occupancy.
    ///
    /// Activity follows Connect's "Agent Activity" precedence (real-time metrics definitions):
    /// a contact in error, missed or rejected first, then connected or on hold, then after-contact
    /// work, then incoming or connecting; without contacts the status decides (available, custom,
    /// offline). A status lasts until the agent's next event, at most 10 minutes (heartbeats come
    /// every 120 s).
    static let agentMetricViews = [
        """
        CREATE VIEW agent_activity_segment AS
        SELECT agent_arn,
               username,
               CASE
                   WHEN event_type = 'LOGOUT' THEN 'offline'
                   WHEN contact_state IN ('ERROR', 'MISSED', 'REJECTED') THEN 'error'
                   WHEN contact_state = 'CONNECTED' THEN 'onContact'
                   WHEN contact_state = 'ENDED' THEN 'afterContactWork'
                   WHEN contact_state = 'CONNECTING' THEN 'connecting'
                   WHEN status_type = 'ROUTABLE' THEN 'available'
                   WHEN status_type IS NULL OR status_type = 'OFFLINE' THEN 'offline'
                   ELSE 'customStatus'
               END AS activity,
               coalesce(status_name, status_type, activity) AS status_name,
               status_type,
               event_ts AS start_ts,
               least(coalesce(lead(event_ts) OVER w, now()), event_ts + interval '10 minutes') AS end_ts
        FROM agent_event
        WINDOW w AS (PARTITION BY agent_arn ORDER BY event_ts, event_id)
        """,
        """
        COMMENT ON VIEW agent_activity_segment IS
        'One row per agent event: the agent''s activity (Connect''s Agent Activity: error covers error, missed and rejected contacts; connecting covers incoming and connecting) and status from the event until the next one, at most 10 minutes.'
        """,
        """
        CREATE VIEW agent_status_interval AS
        SELECT s.agent_arn,
               max(s.username) AS username,
               i.interval_start,
               s.activity,
               s.status_name,
               s.status_type,
               round(sum(extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                          - greatest(s.start_ts, i.interval_start)))::numeric, 3) AS seconds
        FROM agent_activity_segment s
        CROSS JOIN LATERAL generate_series(
            to_timestamp(floor(extract(epoch FROM s.start_ts) / 900) * 900),
            s.end_ts - interval '1 microsecond',
            interval '15 minutes'
        ) AS i(interval_start)
        WHERE s.end_ts > s.start_ts
        GROUP BY s.agent_arn, i.interval_start, s.activity, s.status_name, s.status_type
        """,
        """
        COMMENT ON VIEW agent_status_interval IS
        'Seconds per agent, 15-minute interval, activity and status. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s).'
        """,
        """
        CREATE VIEW agent_interval_metrics AS
        WITH totals AS (
            SELECT agent_arn,
                   max(username) AS username,
                   interval_start,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'available'), 0) AS available_s,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'connecting'), 0) AS connecting_s,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'onContact'), 0) AS on_contact_s,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'afterContactWork'), 0) AS after_contact_work_s,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'error'), 0) AS error_s,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'customStatus'), 0) AS custom_status_s,
                   coalesce(sum(seconds) FILTER (WHERE activity = 'offline'), 0) AS offline_s,
                   coalesce(sum(seconds) FILTER (
                       WHERE activity IN ('onContact', 'afterContactWork') AND status_type = 'ROUTABLE'), 0)
                       AS agent_on_contact_s,
                   coalesce(sum(seconds) FILTER (
                       WHERE activity IN ('available', 'error') AND status_type = 'ROUTABLE'), 0) AS agent_idle_s
            FROM agent_status_interval
            GROUP BY agent_arn, interval_start
        )
        SELECT agent_arn, username, interval_start, interval_start + interval '15 minutes' AS interval_end,
               available_s, connecting_s, on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s,
               agent_on_contact_s, agent_idle_s,
               round(agent_on_contact_s / nullif(agent_on_contact_s + agent_idle_s, 0), 4) AS occupancy
        FROM totals
        """,
    ]
}
