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
FROM totals;

COMMENT ON VIEW agent_interval_metrics IS
'Seconds per agent and 15-minute interval by activity, and Connect''s occupancy (docs/analysts.md), from agent_interval_rollup (intervals that ended over 15 minutes ago) and agent_status_interval.';
